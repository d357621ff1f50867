import { contentTextForContains } from '../compression/content-text.ts';
import { stripSummaryPrefix } from '../compression/markers.ts';
import { isHermesSummaryMessage } from '../import/is-hermes-summary-message.ts';
import type { PresetName } from '../presets/preset-name.ts';
import { estimateMessagesTokensRough } from '../tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';

/** Characters of a summary shown in the lineage view before "…". */
export const SUMMARY_PREVIEW_MAX_CHARS = 280;

/** What the lineage view shows of one session of a continuation chain. */
export interface LineageSegmentDescription {
  messageCount: number;
  /** The rough (Hermes chars/4) estimate of the segment's messages. */
  roughTokens: number;
  /** Index of the newest compaction summary among the messages, or null when there is none. */
  summaryIndex: number | null;
  /** The start of that summary's body, prefix removed, on one line. */
  summaryPreview: string | null;
}

/**
 * Describes a chain segment: its size, and the compaction summary that opens a continuation (or
 * that an in-place compaction left). The newest summary is the one the model currently reads.
 * Every Hermes generation's prefix is recognised, whatever preset made the chain.
 */
export function describeLineageSegment(
  messages: readonly Message[],
  preset: PresetName,
): LineageSegmentDescription {
  let summaryIndex: number | null = null;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message !== undefined && isHermesSummaryMessage(message)) {
      summaryIndex = index;
      break;
    }
  }
  const summary = summaryIndex === null ? undefined : messages[summaryIndex];
  return {
    messageCount: messages.length,
    roughTokens: estimateMessagesTokensRough(messages, preset),
    summaryIndex,
    summaryPreview: summary === undefined ? null : previewOf(contentTextForContains(summary.content)),
  };
}

function previewOf(text: string): string {
  // 2026-07 recognises every prefix that ever shipped, so any chain's summary loses its prefix.
  const body = stripSummaryPrefix(text, 'hermes-2026-07').replace(/\s+/g, ' ').trim();
  return body.length > SUMMARY_PREVIEW_MAX_CHARS ? `${body.slice(0, SUMMARY_PREVIEW_MAX_CHARS - 1)}…` : body;
}
