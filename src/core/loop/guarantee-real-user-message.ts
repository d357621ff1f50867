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
 */
export function guaranteeRealUserMessage(
  compressed: readonly Message[],
  original: readonly Message[],
  preset: Preset,
): Message[] {
  const result = [...compressed];
  if (!preset.loop.guaranteesRealUserMessage) return result;
  if (result.some((message) => isRealUserMessage(message, preset))) return result;
  const anchor = [...original].reverse().find((message) => isRealUserMessage(message, preset));
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
  if (last === undefined || last.role !== 'user' || isSummaryMessage(last, preset)) {
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
