import type { MapRegion } from './lab-plan.ts';
import { offsetOfMessage, type TokenAxis } from './token-axis.ts';

export interface RegionBoundaries {
  /** `messages[:headEnd]` is kept verbatim (the system prompt included). */
  readonly headEnd: number;
  /** `messages[tailStart:]` is kept verbatim; `[headEnd, tailStart)` is summarised. */
  readonly tailStart: number;
}

const sumTokens = (axis: TokenAxis, start: number, end: number): number =>
  axis.prefix[end]! - axis.prefix[start]!;

/**
 * The five bands of the map, in order, partitioning `[0, messageCount)`: system prompt, tool
 * schemas (an empty message range with the schemas' tokens), protected head, middle to
 * summarise, protected tail. Boundaries are clamped so the ranges always stay valid, e.g. when
 * a 2026-04 head of `protect_first_n = 0` would start the middle before the system prompt ends.
 */
export function buildMapRegions(axis: TokenAxis, boundaries: RegionBoundaries): MapRegion[] {
  const count = axis.messageCount;
  const systemEnd = Math.min(axis.systemEnd, count);
  const headEnd = Math.max(systemEnd, Math.min(boundaries.headEnd, count));
  const tailStart = Math.max(headEnd, Math.min(boundaries.tailStart, count));
  const band = (name: MapRegion['name'], start: number, end: number): MapRegion => ({
    name,
    start,
    end,
    tokens: sumTokens(axis, start, end),
    offset: offsetOfMessage(axis, start),
  });
  return [
    band('system', 0, systemEnd),
    {
      name: 'tools',
      start: systemEnd,
      end: systemEnd,
      tokens: axis.toolsTokens,
      offset: axis.prefix[systemEnd]!,
    },
    band('head', systemEnd, headEnd),
    band('middle', headEnd, tailStart),
    band('tail', tailStart, count),
  ];
}
