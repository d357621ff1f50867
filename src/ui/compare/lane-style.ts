import type { LaneKind } from '../../core/comparison/compare-lane.ts';

/** What each stretch of a lane means, in words (legend, tooltips). */
export const LANE_KIND_LABELS: Readonly<Record<LaneKind, string>> = {
  head: 'kept at the head (system prompt, tool schemas)',
  kept: 'kept verbatim',
  pruned: 'kept, shortened',
  summary: 'summarised',
  dropped: 'dropped',
};

/** The map's colours: the head is the head, a summary the summarised middle, what stays the tail. */
export const LANE_KIND_COLORS: Readonly<Record<LaneKind, string>> = {
  head: 'var(--region-head)',
  kept: 'var(--region-tail)',
  pruned: 'color-mix(in srgb, var(--region-tail) 55%, var(--surface))',
  summary: 'var(--region-middle)',
  dropped: 'var(--danger)',
};

/** One colour per entry, the same in the lanes, the chart and the table. */
export const ENTRY_COLORS: readonly string[] = [
  'var(--role-assistant)',
  'var(--role-tool)',
  'var(--role-user)',
  'var(--marker-hygiene)',
  'var(--marker-foreign)',
  'var(--role-system)',
];

export const entryColor = (index: number): string => ENTRY_COLORS[index % ENTRY_COLORS.length]!;
