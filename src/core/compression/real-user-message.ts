/**
 * Which user-role messages a human actually wrote (Hermes `_is_real_user_message`): handoff
 * summaries, synthetic turns the agent injects, and system scaffolding carry role `user` for
 * provider alternation, but must never be taken for "what the user asked".
 */
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import { contentTextForContains } from './content-text.ts';
import {
  COMPRESSED_SUMMARY_METADATA_KEY,
  LEGACY_NO_USER_CONTINUATION,
  NO_USER_CONTINUATION,
  TODO_SNAPSHOT_HEADER,
  isContextSummaryContent,
} from './markers.ts';
import { pythonStrip } from './python-text.ts';

/** In-process flags on user-role turns the agent wrote itself. */
export const SYNTHETIC_USER_FLAGS = [
  '_todo_snapshot_synthetic',
  '_empty_recovery_synthetic',
  '_verification_stop_synthetic',
  '_pre_verify_synthetic',
] as const;

/** Openings of user-role scaffolding messages (truncation notices, tool nudges, reports). */
export const SYSTEM_SCAFFOLDING_PREFIXES = [
  '[System: Your previous response was truncated',
  '[System: The previous response was cut off',
  '[System: Your previous tool call',
  TODO_SNAPSHOT_HEADER,
  '[IMPORTANT: Background process ',
] as const;

/** A handoff summary by its flag or its content. */
export const isSummaryMessage = (message: Message, preset: Preset): boolean =>
  message[COMPRESSED_SUMMARY_METADATA_KEY] === true || isContextSummaryContent(message.content, preset);

export function isRealUserMessage(message: Message, preset: Preset): boolean {
  if (message.role !== 'user') return false;
  if (SYNTHETIC_USER_FLAGS.some((flag) => message[flag])) return false;
  const text = pythonStrip(contentTextForContains(message.content));
  if (!text) return false;
  if (SYSTEM_SCAFFOLDING_PREFIXES.some((prefix) => text.startsWith(prefix))) return false;
  return !isSummaryMessage(message, preset);
}

/**
 * User-role rows the compaction machinery itself wrote: handoff summaries, the no-user
 * continuation marker and the todo snapshot. They are context, not something a user said.
 */
export function isSyntheticCompressionUserTurn(message: Message, preset: Preset): boolean {
  if (message.role !== 'user') return false;
  if (isSummaryMessage(message, preset)) return true;
  const text = pythonStrip(contentTextForContains(message.content));
  return (
    text === NO_USER_CONTINUATION ||
    text === LEGACY_NO_USER_CONTINUATION ||
    text.startsWith(`${TODO_SNAPSHOT_HEADER}\n`)
  );
}
