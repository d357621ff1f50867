import { contentTextForContains } from '../compression/content-text.ts';
import { stripAnyHermesSummaryPrefix } from '../compression/markers.ts';
import { isHermesSummaryMessage } from '../import/is-hermes-summary-message.ts';
import type { Preset } from '../presets/preset.ts';
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
  preset: Preset,
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
  // Whatever generation wrote the chain, its summary loses its prefix.
  const body = stripAnyHermesSummaryPrefix(text).replace(/\s+/g, ' ').trim();
  return body.length > SUMMARY_PREVIEW_MAX_CHARS ? `${body.slice(0, SUMMARY_PREVIEW_MAX_CHARS - 1)}…` : body;
}
