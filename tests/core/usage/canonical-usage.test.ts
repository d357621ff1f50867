import { describe, expect, it } from 'vitest';
import {
  addUsage,
  EMPTY_USAGE,
  promptTokens,
  totalTokens,
  type CanonicalUsage,
} from '#core/usage/canonical-usage.ts';

const usage: CanonicalUsage = {
  inputTokens: 100,
  outputTokens: 20,
  cacheReadTokens: 300,
  cacheWriteTokens: 50,
  reasoningTokens: 5,
  requestCount: 1,
};

describe('promptTokens', () => {
  it('adds cache reads and writes to the uncached input', () => {
    expect(promptTokens(usage)).toBe(450);
  });
});

describe('totalTokens', () => {
  it('adds the output to the prompt', () => {
    expect(totalTokens(usage)).toBe(470);
  });
});

describe('addUsage', () => {
  it('sums every bucket including the request count', () => {
    expect(addUsage(usage, usage)).toEqual({
      inputTokens: 200,
      outputTokens: 40,
      cacheReadTokens: 600,
      cacheWriteTokens: 100,
      reasoningTokens: 10,
      requestCount: 2,
    });
  });

  it('treats EMPTY_USAGE as one request with no tokens', () => {
    expect(addUsage(EMPTY_USAGE, usage)).toEqual({ ...usage, requestCount: 2 });
  });
});
