import { describe, expect, it } from 'vitest';
import { buildMapRegions } from '#core/lab/map-regions.ts';
import { buildPrunedSpans, MAX_PRUNED_SPANS } from '#core/lab/pruned-spans.ts';
import { buildTokenAxis, messageAtOffset, offsetOfMessage } from '#core/lab/token-axis.ts';

describe('token axis and map regions', () => {
  // system 10, tools 5, then 20, 30, 40, 50.
  const axis = buildTokenAxis([10, 20, 30, 40, 50], 1, 5);

  it('places messages after the tool schemas', () => {
    expect(axis.totalTokens).toBe(155);
    expect(offsetOfMessage(axis, 0)).toBe(0);
    expect(offsetOfMessage(axis, 1)).toBe(15);
    expect(offsetOfMessage(axis, 5)).toBe(155);
  });

  it('finds the message under a point, and none over the schemas', () => {
    expect(messageAtOffset(axis, 0)).toBe(0);
    expect(messageAtOffset(axis, 9.9)).toBe(0);
    expect(messageAtOffset(axis, 12)).toBe(-1);
    expect(messageAtOffset(axis, 15)).toBe(1);
    expect(messageAtOffset(axis, 64)).toBe(2);
    expect(messageAtOffset(axis, 154)).toBe(4);
    expect(messageAtOffset(axis, 155)).toBe(-1);
  });

  it('partitions the messages into five bands and clamps a head that ends inside the system prompt', () => {
    expect(buildMapRegions(axis, { headEnd: 2, tailStart: 4 })).toEqual([
      { name: 'system', start: 0, end: 1, tokens: 10, offset: 0 },
      { name: 'tools', start: 1, end: 1, tokens: 5, offset: 10 },
      { name: 'head', start: 1, end: 2, tokens: 20, offset: 15 },
      { name: 'middle', start: 2, end: 4, tokens: 70, offset: 35 },
      { name: 'tail', start: 4, end: 5, tokens: 50, offset: 105 },
    ]);
    const clamped = buildMapRegions(axis, { headEnd: 0, tailStart: 3 });
    expect(clamped.map((region) => [region.name, region.start, region.end])).toEqual([
      ['system', 0, 1],
      ['tools', 1, 1],
      ['head', 1, 1],
      ['middle', 1, 3],
      ['tail', 3, 5],
    ]);
  });

  it('merges close pruned savings into few spans drawn at the end of their messages', () => {
    const savings = [
      { index: 1, savedTokens: 15 },
      { index: 2, savedTokens: 10 },
    ];
    // On a long axis the 20-token gap is invisible, so the two become one stretch.
    expect(buildPrunedSpans(axis, savings, 100_000)).toEqual([
      { start: 20, end: 65, savedTokens: 25, outputs: 2 },
    ]);
    expect(buildPrunedSpans(axis, savings, 1000)).toEqual([
      { start: 20, end: 35, savedTokens: 15, outputs: 1 },
      { start: 55, end: 65, savedTokens: 10, outputs: 1 },
    ]);
    const many = buildTokenAxis(new Array(20_000).fill(10), 0, 0);
    const spread = Array.from({ length: 10_000 }, (_, position) => ({ index: position * 2, savedTokens: 5 }));
    expect(buildPrunedSpans(many, spread, many.totalTokens).length).toBeLessThanOrEqual(MAX_PRUNED_SPANS);
  });
});
