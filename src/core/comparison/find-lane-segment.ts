import type { LaneSegment } from './compare-lane.ts';

/**
 * The stretch of a lane at a point of its token axis (say, under the pointer): the last stretch
 * with tokens starting at or before it, found by binary search over the offsets; null before the
 * first, past the end, or for no stretches. A stretch with no tokens (the tool schemas of a
 * session without tools) is never the answer.
 *
 * @example findLaneSegment(row.lane.segments, 41_200)?.kind // 'summary'
 */
export function findLaneSegment(segments: readonly LaneSegment[], tokens: number): LaneSegment | null {
  let low = 0;
  let high = segments.length - 1;
  let last = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (segments[middle]!.offset <= tokens) {
      last = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  while (last >= 0 && segments[last]!.tokens === 0) last--;
  const segment = last >= 0 ? segments[last]! : null;
  return segment && tokens < segment.offset + segment.tokens ? segment : null;
}
