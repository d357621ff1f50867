import { assertNever } from '../shared/assert-never.ts';

/** How the context map scales its token axis: to the transcript, to the window, or chosen for you. */
export const MAP_ZOOMS = ['auto', 'fit', 'window'] as const;
export type MapZoom = (typeof MAP_ZOOMS)[number];

/**
 * Under `auto`, a transcript shorter than this share of the window is drawn fitted. A quarter:
 * below it the whole transcript is under a quarter of the width, where a 3K-token session is a
 * sliver and its compaction points collapse into one line; above it the window's markers (the
 * trigger at 50–90%, the hygiene line at 85%) are what the picture is about.
 */
export const AUTO_FIT_WINDOW_SHARE = 0.25;

export interface MapAxis {
  /** Tokens the full width stands for. */
  readonly tokens: number;
  /** The axis spans the transcript, shorter than the window: markers past it are off the scale. */
  readonly fitted: boolean;
}

/**
 * The map's axis length. `window` spans max(window, transcript) (a transcript over the window
 * sticks out past its marker); `fit` spans the transcript alone; `auto` fits a transcript under
 * a quarter of the window and spans the window otherwise.
 *
 * @example mapAxis(3_300, 200_000, 'auto') // { tokens: 3300, fitted: true }
 */
export function mapAxis(totalTokens: number, windowTokens: number, zoom: MapZoom): MapAxis {
  const whole: MapAxis = { tokens: Math.max(windowTokens, totalTokens, 1), fitted: false };
  const fitted: MapAxis = { tokens: Math.max(totalTokens, 1), fitted: true };
  const fits = totalTokens < windowTokens;
  switch (zoom) {
    case 'window':
      return whole;
    case 'fit':
      return fits ? fitted : whole;
    case 'auto':
      return totalTokens < windowTokens * AUTO_FIT_WINDOW_SHARE ? fitted : whole;
    default:
      return assertNever(zoom);
  }
}
