import { describe, expect, it } from 'vitest';
import { buildContentSecurityPolicy, originOf } from '#core/security/content-security-policy.ts';

describe('originOf', () => {
  it('keeps scheme, host and port and drops the path', () => {
    expect(originOf('https://api.anthropic.com/v1/messages')).toBe('https://api.anthropic.com');
    expect(originOf('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(originOf('HTTPS://OpenRouter.ai/api/v1')).toBe('https://openrouter.ai');
  });

  it('rejects anything that is not an http(s) URL', () => {
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('api.openai.com')).toBeNull();
  });
});

describe('buildContentSecurityPolicy', () => {
  it('allows connections only to the app and the configured providers', () => {
    const policy = buildContentSecurityPolicy([
      'https://api.anthropic.com/v1',
      'https://api.anthropic.com',
      'nonsense',
    ]);
    expect(policy).toContain("connect-src 'self' https://api.anthropic.com;");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("object-src 'none'");
  });

  it('allows only the app itself when no provider is configured', () => {
    expect(buildContentSecurityPolicy([])).toContain("connect-src 'self';");
  });
});
