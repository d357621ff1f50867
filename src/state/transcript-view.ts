import { roleAt, type MessageRoles } from '../core/lab/message-roles.ts';
import type { Message } from '../core/transcript/message.ts';
import type { TranscriptMetadata } from '../core/transcript/transcript.ts';
import type { ComputeClient, MessageSummary, OpenedDocument } from '../io/compute/compute-client.ts';

export type { MessageSummary };

/**
 * The transcript on screen as the page sees it: its size, metadata, roles and tool-call groups,
 * and its messages only on demand — a window of list rows, one whole message, a find. The
 * messages themselves stay in the worker, which parsed (or loaded) them; the map, the list,
 * the detail, the plan, the replay and the export all read through this.
 */
export interface TranscriptView {
  /** The worker document and the revision this view shows; a newer revision is a new view. */
  readonly documentId: string;
  readonly revision: number;
  readonly count: number;
  readonly metadata: TranscriptMetadata;
  readonly roles: MessageRoles;
  /** `toolCallGroupMarks` of the messages. */
  readonly groupMarks: Uint8Array;
  roleOf(index: number): string;
  /** The list rows `[start, end)`; empty once the document changed. */
  rows(start: number, end: number): Promise<readonly MessageSummary[]>;
  /** One whole message; null out of range or once the document changed. */
  message(index: number): Promise<Message | null>;
  /** Every message whose text, tool name or arguments hold `query`, in order; empty once the document changed. */
  findAll(query: string): Promise<readonly number[]>;
}

/** A view of a document the worker holds, answering through the compute client. */
export function workerTranscriptView(
  compute: ComputeClient,
  documentId: string,
  opened: OpenedDocument,
  metadata: TranscriptMetadata,
): TranscriptView {
  const { revision } = opened;
  return {
    documentId,
    revision,
    count: opened.count,
    metadata,
    roles: opened.roles,
    groupMarks: opened.groupMarks,
    roleOf: (index) => roleAt(opened.roles, index),
    rows: async (start, end) =>
      (await compute.run((api) => api.documentRows(documentId, revision, start, end))) ?? [],
    message: (index) => compute.run((api) => api.documentMessage(documentId, revision, index)),
    findAll: (query) => compute.run((api) => api.findInDocument(documentId, revision, query)),
  };
}
