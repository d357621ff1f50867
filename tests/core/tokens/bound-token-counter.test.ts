import { describe, expect, it } from 'vitest';
import { boundTokenCounter } from '#core/tokens/bound-token-counter.ts';

/** A stand-in BPE: one token per 4 characters of each call, recording what it was given. */
function recordingCounter() {
  const calls: number[] = [];
  return {
    calls,
    counter: {
      count(text: string): number {
        calls.push(text.length);
        return Math.ceil(text.length / 4);
      },
    },
  };
}

describe('boundTokenCounter', () => {
  it('hands ordinary text to the counter whole', () => {
    const { calls, counter } = recordingCounter();
    const text = 'words and more words, line after line.\n'.repeat(1000);
    expect(boundTokenCounter(counter).count(text)).toBe(Math.ceil(text.length / 4));
    expect(calls).toEqual([text.length]);
  });

  it('never hands the counter more than the bound of one run', () => {
    const { calls, counter } = recordingCounter();
    boundTokenCounter(counter, 64).count(`start ${'q'.repeat(100_000)} end`);
    expect(Math.max(...calls)).toBeLessThanOrEqual(64 + 6);
    expect(calls.reduce((sum, length) => sum + length, 0)).toBe(100_010);
  });
});
