import { describe, expect, it } from 'vitest';
import { judgeCompactionGrowth } from '#core/compression/judge-compaction-growth.ts';

describe('judgeCompactionGrowth', () => {
  it('accepts a compaction that saves tokens', () => {
    expect(judgeCompactionGrowth(40_000, 9_000, 120)).toEqual({
      grows: false,
      tokensBefore: 40_000,
      tokensAfter: 9_000,
      reason: null,
    });
  });

  it('refuses one that grows the context, or saves nothing, and says by how much', () => {
    expect(judgeCompactionGrowth(232, 578, 3)).toEqual({
      grows: true,
      tokensBefore: 232,
      tokensAfter: 578,
      reason:
        'the compacted context would hold 578 tokens, 346 more than the 232 it held before: the summary and its framing outweigh the 3 messages they stand for',
    });
    expect(judgeCompactionGrowth(500, 500, 1).grows).toBe(true);
  });
});
