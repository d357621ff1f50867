import { createPlanner, type Planner, type PlannerContext } from '../core/lab/create-planner.ts';
import { createMessageCaches, type MessageCaches } from '../core/lab/message-caches.ts';
import type { Preset } from '../core/presets/preset.ts';
import type { RoughMessageSize, RoughSizeCache } from '../core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../core/transcript/message.ts';
import type { TranscriptMetadata } from '../core/transcript/transcript.ts';
import { RoughTotals } from './rough-totals.ts';
import { TokenDocuments } from './token-documents.ts';

export type DocumentContext = PlannerContext;

/** What the worker keeps of a document besides its messages, for the page's view of it. */
export interface DocumentSource {
  /** The transcript's metadata (title, format, model…); null for a document nobody looks at. */
  readonly metadata?: TranscriptMetadata | null;
  /** The stored id of each message, when the document was loaded from a session. */
  readonly storedIds?: readonly number[] | null;
  /** The session `storedIds` belong to. */
  readonly sessionId?: string | null;
}

interface Entry {
  context: DocumentContext;
  source: DocumentSource;
  revision: number;
  planner: Planner | null;
  /**
   * What is derived from each message (`MessageCaches`), kept across revisions: an appended turn
   * measures only itself, a comparison reads each message once.
   */
  caches: MessageCaches;
  /** Rough totals by preset, extended by appended turns (rough-totals.ts). */
  roughTotals: RoughTotals;
}

/**
 * The transcripts the worker holds, each with its token counts (TokenDocuments), the context
 * a plan needs (tool schemas, foreign compaction points) and a revision number. Every change
 * to a document gives it a new revision and drops its cached planner, so a plan computed on
 * an older revision can be recognised and discarded by the page.
 */
export class LabDocuments {
  readonly tokens = new TokenDocuments();
  readonly #entries = new Map<string, Entry>();
  #nextRevision = 1;

  open(
    documentId: string,
    messages: Message[],
    context: DocumentContext = {},
    source: DocumentSource = {},
  ): number {
    this.tokens.open(documentId, messages);
    const revision = this.#nextRevision++;
    this.#entries.set(documentId, {
      context,
      source,
      revision,
      planner: null,
      caches: createMessageCaches(),
      roughTotals: new RoughTotals(),
    });
    return revision;
  }

  /** Whether `documentId` is open at `revision` (a page's view of an older one is stale). */
  isAt(documentId: string, revision: number): boolean {
    return this.#entries.get(documentId)?.revision === revision;
  }

  source(documentId: string): DocumentSource {
    return this.#require(documentId).source;
  }

  /** Appends messages; their stored ids are no longer known, so the document forgets them. */
  append(documentId: string, messages: Message[]): number {
    this.tokens.append(documentId, messages);
    const entry = this.#require(documentId);
    entry.source = { ...entry.source, storedIds: null };
    return this.#touch(documentId);
  }

  /** The stored ids of the document's messages, once found in the session that stores them. */
  rememberStoredIds(documentId: string, sessionId: string, storedIds: readonly number[]): void {
    const entry = this.#require(documentId);
    entry.source = { ...entry.source, storedIds, sessionId };
  }

  close(documentId: string): void {
    this.tokens.close(documentId);
    this.#entries.delete(documentId);
  }

  revision(documentId: string): number {
    return this.#require(documentId).revision;
  }

  context(documentId: string): DocumentContext {
    return this.#require(documentId).context;
  }

  messages(documentId: string): readonly Message[] {
    return this.tokens.messages(documentId);
  }

  /** The planner of the document's current revision (it keeps each strategy's caches). */
  planner(documentId: string): Planner {
    const entry = this.#require(documentId);
    entry.planner ??= createPlanner(this.tokens.messages(documentId), {
      ...entry.context,
      caches: entry.caches,
    });
    return entry.planner;
  }

  /** What the document's planner and comparisons derived from its messages (kept across revisions). */
  caches(documentId: string): MessageCaches {
    return this.#require(documentId).caches;
  }

  /** The rough size cache of one preset (the planner's own), created on first use. */
  sizeCache(documentId: string, preset: Preset): RoughSizeCache {
    return this.caches(documentId).sizeCache(preset);
  }

  /**
   * The summed rough sizes of the whole document under a preset (what
   * `estimate_messages_tokens_rough` rounds once), without building a planner: after an append
   * only the new messages are measured and added.
   */
  roughSizes(documentId: string, preset: Preset): RoughMessageSize {
    return this.#require(documentId).roughTotals.sizes(
      this.messages(documentId),
      preset,
      this.sizeCache(documentId, preset),
    );
  }

  #touch(documentId: string): number {
    const entry = this.#require(documentId);
    entry.revision = this.#nextRevision++;
    entry.planner = null;
    return entry.revision;
  }

  #require(documentId: string): Entry {
    const entry = this.#entries.get(documentId);
    if (!entry) throw new Error(`No open document '${documentId}'`);
    return entry;
  }
}
