import { describe, expect, it } from 'vitest';
import { AUTO_FIT_WINDOW_SHARE, mapAxis } from '#core/lab/map-axis.ts';

describe('mapAxis', () => {
  it('fits a transcript under a quarter of the window by default', () => {
    // 3,300 of 200,000 tokens is 1.65%: drawn at full width it would be a sliver.
    expect(mapAxis(3_300, 200_000, 'auto')).toEqual({ tokens: 3_300, fitted: true });
    expect(AUTO_FIT_WINDOW_SHARE).toBe(0.25);
  });

  it('spans the window by default once the transcript reaches a quarter of it', () => {
    expect(mapAxis(50_000, 200_000, 'auto')).toEqual({ tokens: 200_000, fitted: false });
    expect(mapAxis(49_999, 200_000, 'auto')).toEqual({ tokens: 49_999, fitted: true });
  });

  it('spans the transcript when it is longer than the window, whatever the zoom', () => {
    for (const zoom of ['auto', 'fit', 'window'] as const)
      expect(mapAxis(250_000, 200_000, zoom)).toEqual({ tokens: 250_000, fitted: false });
  });

  it('follows an explicit choice', () => {
    expect(mapAxis(3_300, 200_000, 'window')).toEqual({ tokens: 200_000, fitted: false });
    expect(mapAxis(120_000, 200_000, 'fit')).toEqual({ tokens: 120_000, fitted: true });
  });

  it('never gives an empty axis', () => {
    expect(mapAxis(0, 0, 'auto')).toEqual({ tokens: 1, fitted: false });
    expect(mapAxis(0, 200_000, 'fit')).toEqual({ tokens: 1, fitted: true });
  });
});
