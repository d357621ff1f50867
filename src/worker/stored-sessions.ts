import type { PresetName } from '../core/presets/preset-name.ts';
import { getPreset, type Preset } from '../core/presets/preset.ts';
import {
  describeLineageSegment,
  type LineageSegmentDescription,
} from '../core/sessions/describe-lineage-segment.ts';
import { err, ok, type Result } from '../core/shared/result.ts';
import type { LineageExportFormat } from '../io/db/export-lineage.ts';
import type { SessionRepository } from '../io/db/session-repository.ts';
import { sessionTranscriptMetadata } from '../io/db/session-transcript-metadata.ts';
import type { MessageNotFoundError, SessionNotFoundError } from '../io/db/session-store-error.ts';
import type { StorageFullError } from '../io/db/storage-full-error.ts';
import type { Message } from '../core/transcript/message.ts';
import { openedDocument, type OpenedDocument } from './document-view.ts';
import type { LabDocuments } from './lab-documents.ts';
import type { CompressorState } from '../core/compression/compressor-state.ts';
import { requestMessages } from '../core/loop/request-messages.ts';
import { BROWSER_TOOL_SCHEMAS } from '../core/tools/browser-tool-schemas.ts';

/** What the plan of a stored chat session needs to judge it as the live loop would. */
export interface StoredConversation {
  /** The compressor's memory as the chat left it (compaction count, last reported prompt count…). */
  readonly compressorState: CompressorState | null;
  /** The model the chat talked to: its window is the one the conversation is drawn against. */
  readonly model: string | null;
}

/** A stored session opened as a document, and where a requested message sits in it. */
export interface OpenedSession {
  opened: OpenedDocument;
  /** Index of the requested stored message among the live ones; null when not asked or not live. */
  messageIndex: number | null;
  /** Indices of the pinned messages, ascending. */
  pinned: number[];
  /** Set for a chat session, opened as its request context; null for imports, replays, the demo. */
  conversation: StoredConversation | null;
}

/**
 * Loads a stored session's live transcript into a document, with each message's stored id, so a
 * search hit (which names a stored id) finds its message exactly. A chat session is opened as the
 * request its next turn would send (`requestMessages`: its system prompt first, then its
 * messages, with the tool schemas the chat offers), which is what its live loop measures.
 */
export async function openStoredSession(
  documents: LabDocuments,
  repository: SessionRepository,
  request: { documentId: string; sessionId: string; messageId?: number | null },
  /** Whose estimator measures the rough counts. */
  preset: Preset,
): Promise<Result<OpenedSession, SessionNotFoundError>> {
  const [session, entries] = await Promise.all([
    repository.getSession(request.sessionId),
    repository.loadMessageEntries(request.sessionId),
  ]);
  if (session === undefined) return err({ type: 'SessionNotFound', sessionId: request.sessionId });
  const metadata = sessionTranscriptMetadata(session);
  const chat = session.source === 'chat';
  const stored = entries.map((entry) => entry.message);
  const messages = chat ? requestMessages(session.systemPrompt ?? '', stored) : stored;
  if (chat) metadata.tools = [...BROWSER_TOOL_SCHEMAS];
  // The system prompt the request puts first is not a stored row (-1: no stored id).
  const storedIds = [
    ...new Array<number>(messages.length - stored.length).fill(-1),
    ...entries.map((entry) => entry.id),
  ];
  documents.open(
    request.documentId,
    messages,
    { tools: metadata.tools ?? [], compactionPoints: metadata.compactionPoints },
    { metadata, storedIds, sessionId: request.sessionId },
  );
  const index = request.messageId == null ? -1 : storedIds.indexOf(request.messageId);
  const pinned: number[] = [];
  // Indices in the document: a chat's system prompt comes first and shifts its rows by one.
  const shift = messages.length - stored.length;
  entries.forEach((entry, at) => {
    if (entry.pinned) pinned.push(at + shift);
  });
  return ok({
    opened: openedDocument(documents, request.documentId, preset),
    messageIndex: index >= 0 ? index : null,
    pinned,
    conversation: chat ? { compressorState: session.compressorState, model: session.model } : null,
  });
}

/** Pinning a message of a stored session, from the document that shows it. */
export interface PinStoredMessageRequest {
  readonly sessionId: string;
  /** The document on screen and the revision the page shows. */
  readonly documentId: string;
  readonly revision: number;
  readonly index: number;
  readonly pinned: boolean;
}

export type PinStoredMessageError =
  | SessionNotFoundError
  | MessageNotFoundError
  | StorageFullError
  | { readonly type: 'DocumentChanged'; readonly message: string }
  | { readonly type: 'PinFailed'; readonly message: string };

/**
 * Stores the pin of message `index` of a document on the stored session it shows. The message's
 * stored id comes from the document when it was loaded from that session; otherwise (an import
 * or the demo stored since it was opened) from the session's live rows, which must hold the same
 * message at that index — the document and the session must not have drifted apart — and the
 * ids found are kept on the document for the next pin.
 */
export async function pinStoredMessage(
  documents: LabDocuments,
  repository: SessionRepository,
  request: PinStoredMessageRequest,
): Promise<Result<void, PinStoredMessageError>> {
  const changed = (): Result<never, PinStoredMessageError> =>
    err({
      type: 'DocumentChanged',
      message: 'The transcript on screen is not what the session stores now; open the session again to pin.',
    });
  if (!documents.isAt(request.documentId, request.revision)) return changed();
  const messages = documents.messages(request.documentId);
  const source = documents.source(request.documentId);
  let storedIds = source.sessionId === request.sessionId ? (source.storedIds ?? null) : null;
  if (storedIds === null || storedIds.length !== messages.length) {
    const entries = await repository.loadMessageEntries(request.sessionId);
    if (!documents.isAt(request.documentId, request.revision)) return changed();
    if (entries.length !== messages.length) return changed();
    const entry = entries[request.index];
    if (entry === undefined || verbatim(entry.message) !== verbatim(messages[request.index]!))
      return changed();
    storedIds = entries.map((stored) => stored.id);
    documents.rememberStoredIds(request.documentId, request.sessionId, storedIds);
  }
  const messageId = storedIds[request.index];
  if (messageId === undefined) return changed();
  return repository.setMessagePinned(request.sessionId, messageId, request.pinned);
}

const verbatim = (message: Message): string => JSON.stringify(message);

/** What the lineage view shows of each session of the chain through `sessionId`, root first. */
export async function describeLineage(
  repository: SessionRepository,
  sessionId: string,
  presetName: PresetName,
): Promise<Array<{ sessionId: string; description: LineageSegmentDescription }>> {
  const preset = getPreset(presetName);
  const segments = await repository.loadLineageMessages(sessionId, preset);
  return segments.map(({ session, messages }) => ({
    sessionId: session.id,
    description: describeLineageSegment(messages, preset),
  }));
}

export interface LineageExportRequest {
  sessionId: string;
  format: LineageExportFormat;
  preset: PresetName;
  timestampIso: string;
  /** The file's type, for the Blob. */
  mimeType: string;
}

/**
 * The whole chain of a session in an export format, as a Blob: the page hands it to a download
 * without ever holding the text (tens of megabytes for a long session).
 */
export async function exportLineageBlob(
  repository: SessionRepository,
  request: LineageExportRequest,
): Promise<Blob> {
  const text = await repository.exportLineage(request.sessionId, request.format, {
    preset: getPreset(request.preset),
    timestampIso: request.timestampIso,
  });
  return new Blob([text], { type: `${request.mimeType};charset=utf-8` });
}
