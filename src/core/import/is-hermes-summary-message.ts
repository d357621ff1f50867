import { contentTextForContains } from '../compression/content-text.ts';
import { LEGACY_SUMMARY_PREFIX, MERGED_SUMMARY_DELIMITER } from '../compression/markers.ts';
import type { Message } from '../transcript/message.ts';

/** Every Hermes handoff prefix since 2026-04 begins with this (hermes-reference §5.13). */
const COMPACTION_PREFIX_OPENING = '[CONTEXT COMPACTION';

/**
 * Whether a message is a Hermes compaction summary, under any Hermes generation's prefix. Looser
 * than the compressor's own check on purpose: an export from any version should be recognised.
 */
export function isHermesSummaryMessage(message: Message): boolean {
  if (message.role !== 'user' && message.role !== 'assistant') return false;
  const text = contentTextForContains(message.content).trimStart();
  return (
    text.startsWith(COMPACTION_PREFIX_OPENING) ||
    text.startsWith(LEGACY_SUMMARY_PREFIX) ||
    text.includes(MERGED_SUMMARY_DELIMITER)
  );
}
