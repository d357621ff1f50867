/**
 * The real-user guarantee of `compress_context` (hermes-reference §6 step 11, 2026-07): a
 * compacted transcript must still contain something a human wrote, or the model answers the
 * summary instead of the user. 2026-04 had no such step.
 */
import { appendTextToContent, contentTextForContains } from '../compression/content-text.ts';
import { NO_USER_CONTINUATION } from '../compression/markers.ts';
import { isRealUserMessage, isSummaryMessage } from '../compression/real-user-message.ts';
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';

/**
 * Returns `compressed` unchanged when it has a real user message. Otherwise the newest real
 * user message of `original` goes before the first assistant turn not preceded by a user turn;
 * failing that it is appended, after a trailing summary, or merged (anchor text first) into
 * trailing user scaffolding. With no real user message anywhere, the no-user continuation
 * marker is appended.
 *
 * `pinnedPutBack`: messages the compaction put back only because they are pinned (Context Lab's
 * extension; Hermes has no pins). An older ask kept that way does not count as the user's turn,
 * so the newest ask is still guaranteed; the newest ask itself, pinned, does count.
 */
export function guaranteeRealUserMessage(
  compressed: readonly Message[],
  original: readonly Message[],
  preset: Preset,
  pinnedPutBack: ReadonlySet<Message> = new Set(),
): Message[] {
  const result = [...compressed];
  if (!preset.loop.guaranteesRealUserMessage) return result;
  let anchor: Message | undefined;
  for (let index = original.length - 1; index >= 0 && anchor === undefined; index--)
    if (isRealUserMessage(original[index]!, preset)) anchor = original[index];
  const counts = (message: Message): boolean =>
    isRealUserMessage(message, preset) && (!pinnedPutBack.has(message) || message === anchor);
  if (result.some(counts)) return result;
  if (!anchor) {
    result.push({ role: 'user', content: NO_USER_CONTINUATION });
    return result;
  }
  const orphanAssistant = result.findIndex(
    (message, index) => message.role === 'assistant' && result[index - 1]?.role !== 'user',
  );
  if (orphanAssistant >= 0) {
    result.splice(orphanAssistant, 0, { ...anchor });
    return result;
  }
  const last = result[result.length - 1];
  // A pin is kept verbatim: the anchor goes after it, never into it.
  if (
    last === undefined ||
    last.role !== 'user' ||
    isSummaryMessage(last, preset) ||
    pinnedPutBack.has(last)
  ) {
    result.push({ ...anchor });
    return result;
  }
  const anchorText = contentTextForContains(anchor.content);
  result[result.length - 1] = {
    ...last,
    content: appendTextToContent(last.content, `${anchorText}\n\n`, true),
  };
  return result;
}
