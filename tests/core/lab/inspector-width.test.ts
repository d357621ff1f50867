import { describe, expect, it } from 'vitest';
import {
  clampInspectorWidth,
  INSPECTOR_MIN_WIDTH_PX,
  inspectorWidthBounds,
  isStoredInspectorWidth,
  TRANSCRIPT_MIN_WIDTH_PX,
} from '#core/lab/inspector-width.ts';

describe('inspector width', () => {
  it('leaves the transcript its minimum', () => {
    expect(inspectorWidthBounds(1_400)).toEqual({
      min: INSPECTOR_MIN_WIDTH_PX,
      max: 1_400 - TRANSCRIPT_MIN_WIDTH_PX,
    });
    expect(clampInspectorWidth(900, 1_000)).toBe(1_000 - TRANSCRIPT_MIN_WIDTH_PX);
  });

  it('never goes below its own minimum, even when the screen is too narrow for both', () => {
    expect(clampInspectorWidth(100, 1_400)).toBe(INSPECTOR_MIN_WIDTH_PX);
    expect(inspectorWidthBounds(800)).toEqual({ min: INSPECTOR_MIN_WIDTH_PX, max: INSPECTOR_MIN_WIDTH_PX });
    expect(clampInspectorWidth(500, 800)).toBe(INSPECTOR_MIN_WIDTH_PX);
  });

  it('keeps a width that fits, in whole pixels', () => {
    expect(clampInspectorWidth(640.6, 1_400)).toBe(641);
  });

  it('accepts a stored width only when someone could have dragged to it', () => {
    expect(isStoredInspectorWidth(null)).toBe(true);
    expect(isStoredInspectorWidth(720)).toBe(true);
    for (const value of [undefined, '720', Number.NaN, Infinity, 12, 80_000, { width: 720 }])
      expect(isStoredInspectorWidth(value)).toBe(false);
  });
});
