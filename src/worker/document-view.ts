import { messageRoles, type MessageRoles } from '../core/lab/message-roles.ts';
import { toolCallGroupMarks } from '../core/lab/tool-call-groups.ts';
import type { Preset } from '../core/presets/preset.ts';
import { roughTokensFromSizes } from '../core/tokens/estimate-messages-tokens-rough.ts';
import { sumRoughMessageSizes } from '../core/tokens/estimate-request-tokens-rough.ts';
import { messagePreview } from '../core/transcript/message-preview.ts';
import type { Message } from '../core/transcript/message.ts';
import type { TranscriptMetadata } from '../core/transcript/transcript.ts';
import type { LabDocuments } from './lab-documents.ts';

/** Rough tokens per message (typed: 50,000 of them are one copy, not 50,000 numbers) and their sum. */
export interface RoughCounts {
  perMessage: Int32Array;
  total: number;
}

/**
 * What the page draws of a document the worker holds, without its messages: their number, rough
 * counts, roles and tool-call groups as typed arrays, the transcript's metadata, and the
 * revision every later request about it names.
 */
export interface OpenedDocument extends RoughCounts {
  revision: number;
  count: number;
  roles: MessageRoles;
  /** `toolCallGroupMarks` of the messages. */
  groupMarks: Uint8Array;
  metadata: TranscriptMetadata | null;
}

/** One row of the message list: what it shows of a message. */
export interface MessageSummary {
  index: number;
  role: string;
  preview: string;
}

/** Rows asked for at once at most: a screenful is a few dozen. */
export const MAXIMUM_ROWS_PER_REQUEST = 1_000;

/** Rough counts of a document's messages (or of its newest `tail` messages) under a preset's estimator. */
export function roughCounts(
  documents: LabDocuments,
  documentId: string,
  preset: Preset,
  tail?: number,
): RoughCounts {
  const basis = documents.planner(documentId).rough(preset);
  const perMessage =
    tail === undefined ? basis.tokens.slice() : basis.tokens.slice(basis.tokens.length - tail);
  return { perMessage, total: basis.messagesTokens };
}

/**
 * Rough counts of a document's newest `count` messages and its total, as `roughCounts` gives
 * them, in time proportional to `count`: what an append answers, so a new turn in a 50,000-message
 * document does not measure the other 50,000 (the planner is built when a plan is asked for).
 * Each new message's share starts where the characters of the messages before it end.
 */
export function appendedRoughCounts(
  documents: LabDocuments,
  documentId: string,
  preset: Preset,
  count: number,
): RoughCounts {
  const messages = documents.messages(documentId);
  const cache = documents.sizeCache(documentId, preset);
  const all = documents.roughSizes(documentId, preset);
  const tail = messages.slice(Math.max(0, messages.length - count));
  const tailChars = sumRoughMessageSizes(tail, preset, cache).chars;
  const perMessage = new Int32Array(tail.length);
  sumRoughMessageSizes(tail, preset, cache, perMessage, all.chars - tailChars);
  return { perMessage, total: roughTokensFromSizes(all.chars, all.images) };
}

export function openedDocument(documents: LabDocuments, documentId: string, preset: Preset): OpenedDocument {
  const messages = documents.messages(documentId);
  return {
    ...roughCounts(documents, documentId, preset),
    revision: documents.revision(documentId),
    count: messages.length,
    roles: messageRoles(messages),
    groupMarks: toolCallGroupMarks(messages),
    metadata: documents.source(documentId).metadata ?? null,
  };
}

/** The list rows `[start, end)` of a document, cut to the transcript and to `MAXIMUM_ROWS_PER_REQUEST`. */
export function documentRows(messages: readonly Message[], start: number, end: number): MessageSummary[] {
  const from = Math.max(0, Math.floor(start));
  const to = Math.min(messages.length, Math.floor(end), from + MAXIMUM_ROWS_PER_REQUEST);
  const rows: MessageSummary[] = [];
  for (let index = from; index < to; index++) {
    const message = messages[index]!;
    rows.push({ index, role: String(message.role), preview: messagePreview(message) });
  }
  return rows;
}
