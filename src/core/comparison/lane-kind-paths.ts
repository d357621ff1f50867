import { LANE_KINDS, type LaneKind, type LaneSegment } from './compare-lane.ts';

/** A stretch with tokens is never drawn thinner than this, in drawing units, so it stays visible. */
export const MIN_STRETCH_WIDTH = 0.6;

/** Rounds a coordinate to 1/100 of a unit: finer than any screen, and short in a path. */
const round = (value: number): number => Math.round(value * 100) / 100;

/**
 * A lane's stretches as one SVG path per kind (a rectangle per stretch, `height` tall, the axis
 * `width` units long for `axisTokens`), so a lane of thousands of stretches is five elements to
 * draw rather than thousands. Kinds with no stretch with tokens get ''.
 *
 * @example laneKindPaths(row.lane.segments, 93_000, 1000, 15).summary // 'M120 0h640v15h-640z'
 */
export function laneKindPaths(
  segments: readonly LaneSegment[],
  axisTokens: number,
  width: number,
  height: number,
): Record<LaneKind, string> {
  const scale = width / Math.max(1, axisTokens);
  const parts = Object.fromEntries(LANE_KINDS.map((kind) => [kind, [] as string[]])) as Record<
    LaneKind,
    string[]
  >;
  for (const segment of segments) {
    if (segment.tokens <= 0) continue;
    const stretch = round(Math.max(segment.tokens * scale, MIN_STRETCH_WIDTH));
    parts[segment.kind].push(`M${round(segment.offset * scale)} 0h${stretch}v${height}h${-stretch}z`);
  }
  return Object.fromEntries(LANE_KINDS.map((kind) => [kind, parts[kind].join('')])) as Record<
    LaneKind,
    string
  >;
}
