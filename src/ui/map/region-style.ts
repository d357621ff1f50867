import type { MapRegionName } from '../../core/lab/lab-plan.ts';

/** Names a person reads for each band of the map. */
export const REGION_LABELS: Readonly<Record<MapRegionName, string>> = {
  system: 'System prompt',
  tools: 'Tool schemas',
  head: 'Protected head',
  middle: 'Middle (summarised)',
  tail: 'Protected tail',
};

/** The CSS variable that colours a region everywhere (map, list stripe, legend). */
export const regionColor = (region: MapRegionName): string => `var(--region-${region})`;
