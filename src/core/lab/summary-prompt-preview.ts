/**
 * How much of a summariser prompt the replay shows: the prompt of a long transcript's middle runs
 * to megabytes (20 MB for 50,000 messages), and the page is sent only this much of it.
 */
export const PROMPT_PREVIEW_CHARS = 200_000;

/** The start of a summariser prompt, with the length of all of it. */
export interface SummaryPromptPreview {
  /** Characters in the whole prompt. */
  readonly chars: number;
  /** Its first `PROMPT_PREVIEW_CHARS` characters. */
  readonly text: string;
}

export function summaryPromptPreview(prompt: string): SummaryPromptPreview {
  return { chars: prompt.length, text: prompt.slice(0, PROMPT_PREVIEW_CHARS) };
}
