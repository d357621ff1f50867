/**
 * Removes inline reasoning blocks (`<think>`, `<thinking>`, `<reasoning>`, `<thought>`,
 * `<REASONING_SCRATCHPAD>`) from model text, as Hermes `strip_think_blocks` does before
 * assistant turns reach the summariser and before a summary is stored: reasoning is scratch
 * work, and keeping it would feed it back into every later summary.
 */
const CLOSED_BLOCK_RE = /<(think|thinking|reasoning|thought|REASONING_SCRATCHPAD)>[\s\S]*?<\/\1>/gi;
/** An opening tag that is never closed swallows the rest of the text (a truncated trace). */
const UNTERMINATED_BLOCK_RE =
  /(?:^|\n)[ \t]*<(?:think|thinking|reasoning|thought|REASONING_SCRATCHPAD)\b[^>]*>[\s\S]*$/i;
const ORPHAN_TAG_RE = /<\/?(?:think|thinking|reasoning|thought|REASONING_SCRATCHPAD)>\s*/gi;
const ANY_TAG_RE = /<\/?(?:think|thinking|reasoning|thought|REASONING_SCRATCHPAD)\b/i;

export function stripThinkBlocks(text: string): string {
  if (!text || !text.includes('<') || !ANY_TAG_RE.test(text)) return text;
  return text.replace(CLOSED_BLOCK_RE, '').replace(UNTERMINATED_BLOCK_RE, '').replace(ORPHAN_TAG_RE, '');
}
