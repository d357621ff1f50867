import { describe, expect, it } from 'vitest';
import { checkSummaryModelWindow } from '#core/providers/check-summary-model-window.ts';

describe('checkSummaryModelWindow', () => {
  it('warns when the summary request does not fit the summary model', () => {
    expect(checkSummaryModelWindow(150_000, 128_000)).toBe(
      "The summary model's context window (128,000 tokens) is smaller than the summary request (~150,000 tokens): the call will likely fail. Choose a summary model with a larger window, or summarise with the main model.",
    );
  });

  it('is silent when it fits or the window is unknown', () => {
    expect(checkSummaryModelWindow(100_000, 128_000)).toBeNull();
    expect(checkSummaryModelWindow(100_000, null)).toBeNull();
    expect(checkSummaryModelWindow(100_000, 0)).toBeNull();
  });
});
