import { describe, expect, it } from 'vitest';
import {
  maskToken,
  redactCompactionText,
  redactSensitiveText,
} from '#core/compression/redact-sensitive-text.ts';

describe('maskToken', () => {
  it('keeps the first 6 and last 4 characters of long tokens', () => {
    expect(maskToken('sk-abcdefghijklmnopqrstuvwxyz')).toBe('sk-abc...wxyz');
  });

  it('fully masks tokens shorter than 18 characters', () => {
    expect(maskToken('short-token')).toBe('***');
  });
});

describe('redactSensitiveText', () => {
  it('returns text without secrets unchanged', () => {
    const text = 'ran pytest -> 3 failed in tests/test_app.py';
    expect(redactSensitiveText(text)).toBe(text);
  });

  it('masks vendor API keys (OpenAI, Anthropic, GitHub, AWS)', () => {
    const text =
      'keys sk-proj-ABCDEFGHIJKLMNOPQRST sk-ant-api03-abcdefghijklmnop ghp_abcdefghijklmnopqrstu AKIAABCDEFGHIJKLMNOP';
    const redacted = redactSensitiveText(text);
    expect(redacted).not.toContain('ABCDEFGHIJKLMNOPQRST');
    expect(redacted).not.toContain('abcdefghijklmnopqrstu');
    expect(redacted).toContain('sk-pro...QRST');
    expect(redacted).toContain('AKIAAB...MNOP');
  });

  it('masks secret KEY=value assignments and JSON secret fields', () => {
    expect(redactSensitiveText('export OPENAI_API_KEY=abc123def456ghi789jkl')).toBe(
      'export OPENAI_API_KEY=abc123...9jkl',
    );
    expect(redactSensitiveText('{"password": "hunter2"}')).toBe('{"password": "***"}');
  });

  it('masks Authorization headers and bearer tokens once', () => {
    expect(redactSensitiveText('Authorization: Bearer abcdefghijklmnopqrstuvwxyz')).toBe(
      'Authorization: Bearer abcdef...wxyz',
    );
  });

  it('replaces private key blocks', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----';
    expect(redactSensitiveText(`key:\n${block}\ndone`)).toBe('key:\n[REDACTED PRIVATE KEY]\ndone');
  });

  it('masks database URL passwords', () => {
    expect(redactSensitiveText('postgres://app:s3cretpw@db:5432/x')).toBe('postgres://app:***@db:5432/x');
  });

  it('masks URL credentials only in the strict compaction mode', () => {
    const url = 'https://user:pa55word@example.com/callback?code=abc123';
    expect(redactSensitiveText(url)).toBe(url);
    expect(redactCompactionText(url)).toBe('https://user:***@example.com/callback?code=***');
  });

  it('masks a credential query parameter with no scheme or other secret anywhere in the text', () => {
    // A request line from a server log: only the `?code=` and `&sig=` parameters say "secret".
    // An old second pre-screen let such text through unredacted (it knew `://` but not the
    // parameter names); Hermes runs the query pattern on every compaction text.
    const line = 'GET /login/callback?code=4/0AX4XfWh-x7Q2&sig=abc123 HTTP/1.1';
    expect(redactSensitiveText(line)).toBe(line);
    expect(redactCompactionText(line)).toBe('GET /login/callback?code=***&sig=*** HTTP/1.1');
  });
});
