import { describe, expect, it } from 'vitest';
import { searchShardOf, searchShardRange } from '#io/db/search-shard-row.ts';

describe('searchShardOf', () => {
  it('groups a term by its first character', () => {
    expect(searchShardOf('context')).toBe('c');
    expect(searchShardOf('co')).toBe('c');
    expect(searchShardOf('t')).toBe('t');
    expect(searchShardOf('上下')).toBe('上');
  });

  it('counts code points, so an astral character is never cut in half', () => {
    expect(searchShardOf('😀😀x')).toBe('😀');
    expect(searchShardOf('a😀b')).toBe('a');
    expect(searchShardOf('😀')).toBe('😀');
  });
});

describe('searchShardRange', () => {
  const inRange = (bucket: number, prefix: string, key: [number, string]): boolean => {
    const [[lowBucket, low], [highBucket, high]] = searchShardRange(bucket, prefix);
    return key[0] === lowBucket && key[0] === highBucket && key[1] >= low && key[1] <= high;
  };

  it('covers every shard that can hold a term starting with the prefix, and no other bucket', () => {
    expect(inRange(3, 'c', [3, 'c'])).toBe(true);
    expect(inRange(3, 'c', [3, 'd'])).toBe(false);
    expect(inRange(3, 'con', [3, 'c'])).toBe(true);
    expect(inRange(3, 'con', [3, 'd'])).toBe(false);
    expect(inRange(3, '😀x', [3, '😀'])).toBe(true);
    expect(inRange(3, 'c', [4, 'c'])).toBe(false);
  });
});
