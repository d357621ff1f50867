import { formatCount } from '../shared/format-count.ts';

/**
 * A warning when the summary model's window is smaller than what the summariser would send it
 * (prompt plus the output it may write): the call would fail with an overflow, so the user
 * should pick a larger auxiliary model or let the main model summarise. Null when it fits or
 * the window is unknown.
 */
export function checkSummaryModelWindow(
  promptTokens: number,
  summaryModelContextLength: number | null | undefined,
): string | null {
  if (!summaryModelContextLength || summaryModelContextLength <= 0) return null;
  if (promptTokens <= summaryModelContextLength) return null;
  return (
    `The summary model's context window (${formatCount(summaryModelContextLength)} tokens) is smaller than ` +
    `the summary request (~${formatCount(promptTokens)} tokens): the call will likely fail. ` +
    'Choose a summary model with a larger window, or summarise with the main model.'
  );
}
