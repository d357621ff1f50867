/**
 * How wide the inspector is beside the transcript. By default it takes about a third of the
 * window (the stylesheet's `clamp(400px, 34vw, 560px)`); the user can drag the splitter between
 * the two, and the width they chose is kept as a setting. Wide tabs (the comparison table, the
 * review of a summary) want more room than the default gives at 1440 px; the map and the message
 * list still need enough to be read, so neither side can be squeezed below its minimum.
 */

/** Narrower than this and the tabs' forms wrap every label. */
export const INSPECTOR_MIN_WIDTH_PX = 360;

/**
 * The map and the message list keep at least this much: the list's fixed columns take ~360 px,
 * and its message column should still show a few words.
 */
export const TRANSCRIPT_MIN_WIDTH_PX = 560;

/** A stored width outside this range was not dragged to on any screen: the default is used. */
const STORED_WIDTH_LIMIT_PX = 8_000;

/** The widths the inspector may take when `availablePx` is shared between it and the transcript. */
export function inspectorWidthBounds(availablePx: number): { min: number; max: number } {
  return {
    min: INSPECTOR_MIN_WIDTH_PX,
    max: Math.max(INSPECTOR_MIN_WIDTH_PX, Math.floor(availablePx - TRANSCRIPT_MIN_WIDTH_PX)),
  };
}

/**
 * The width the inspector is drawn at for a wanted width, a whole number of pixels within the
 * bounds. A width chosen on a wide screen shrinks on a narrower one and comes back on the wide one.
 *
 * @example clampInspectorWidth(900, 1000) // 440: the transcript keeps its 560 px
 */
export function clampInspectorWidth(wantedPx: number, availablePx: number): number {
  const { min, max } = inspectorWidthBounds(availablePx);
  return Math.round(Math.min(max, Math.max(min, wantedPx)));
}

/** A stored setting: a width in pixels, or null for the default. */
export const isStoredInspectorWidth = (value: unknown): value is number | null =>
  value === null ||
  (typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= INSPECTOR_MIN_WIDTH_PX &&
    value <= STORED_WIDTH_LIMIT_PX);
