import { describe, expect, it } from 'vitest';
import { isLlmError, LlmError, redactSecret } from '#io/llm/llm-error.ts';

describe('isLlmError', () => {
  it('recognises instances and look-alikes from another realm, not plain errors', () => {
    const error = new LlmError({ kind: 'http', provider: 'anthropic', message: 'boom', status: 500 });
    expect(isLlmError(error)).toBe(true);
    const foreign = Object.assign(new Error('boom'), {
      name: 'LlmError',
      [Symbol.for('context-lab.llm-error')]: true,
    });
    expect(isLlmError(foreign)).toBe(true);
    expect(isLlmError(Object.assign(new Error('boom'), { name: 'LlmError' }))).toBe(false);
    expect(isLlmError(new Error('boom'))).toBe(false);
    expect(isLlmError(null)).toBe(false);
  });

  it('has a stable name and exposes status, headers and the retry wait', () => {
    const error = new LlmError({
      kind: 'http',
      provider: 'openai-compatible',
      message: '429',
      status: 429,
      headers: { 'retry-after': '2' },
      retryAfterMs: 2000,
    });
    expect(error.name).toBe('LlmError');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      status: 429,
      headers: { 'retry-after': '2' },
      retryAfterMs: 2000,
      isRetryable: true,
    });
  });
});

describe('redactSecret', () => {
  it('replaces every occurrence of the key', () => {
    expect(redactSecret('key sk-123456 and sk-123456', 'sk-123456')).toBe('key [redacted] and [redacted]');
  });

  it('leaves text alone for an empty or tiny secret', () => {
    expect(redactSecret('abc', '')).toBe('abc');
  });
});
