import { describe, expect, it } from 'vitest';
import { PROMPT_PREVIEW_CHARS, summaryPromptPreview } from '#core/lab/summary-prompt-preview.ts';

describe('summaryPromptPreview', () => {
  it('keeps a short prompt whole and the start of a long one, with the length of all of it', () => {
    expect(summaryPromptPreview('Summarise this.')).toEqual({ chars: 15, text: 'Summarise this.' });
    const long = 'x'.repeat(PROMPT_PREVIEW_CHARS + 5);
    expect(summaryPromptPreview(long)).toEqual({
      chars: long.length,
      text: long.slice(0, PROMPT_PREVIEW_CHARS),
    });
  });
});
