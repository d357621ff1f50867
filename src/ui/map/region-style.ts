import type { MapRegionName } from '../../core/lab/lab-plan.ts';
import type { RegionLabels } from '../../core/strategies/strategy.ts';

/** Names a person reads for each band of the map (Hermes' terms). */
export const REGION_LABELS: Readonly<Record<MapRegionName, string>> = {
  system: 'System prompt',
  tools: 'Tool schemas',
  head: 'Protected head',
  middle: 'Middle (summarised)',
  tail: 'Protected tail',
};

/** The band names in a strategy's own terms (an LCM leaf chunk is not a Hermes middle). */
export function regionLabel(region: MapRegionName, labels: RegionLabels): string {
  if (region === 'head' || region === 'middle' || region === 'tail') {
    const label = labels[region];
    return label.charAt(0).toUpperCase() + label.slice(1);
  }
  return REGION_LABELS[region];
}

/** The CSS variable that colours a region everywhere (map, list stripe, legend). */
export const regionColor = (region: MapRegionName): string => `var(--region-${region})`;
