import type { StrategyName } from '../core/strategies/strategy-names.ts';
import type { Estimator, TokenEncoding } from '../core/tokens/estimator.ts';
import type { Message } from '../core/transcript/message.ts';
import type { Transcript, TranscriptMetadata } from '../core/transcript/transcript.ts';
import {
  ComputeCancelledError,
  workerCallback,
  type ComputeClient,
  type OpenedDocument,
  type OpenStoredSessionReply,
  type PinStoredMessageReply,
  type StoredConversation,
} from '../io/compute/compute-client.ts';
import { MessagePins } from './message-pins.svelte.ts';
import { MessageRows } from './message-rows.svelte.ts';
import { workerTranscriptView, type TranscriptView } from './transcript-view.ts';

export type TranscriptStatus = 'empty' | 'loading' | 'counting' | 'ready' | 'error';

export interface TokenCounts {
  perMessage: ArrayLike<number>;
  total: number;
}

/** The worker document that holds the transcript on screen. */
export const CURRENT_DOCUMENT_ID = 'current';

/**
 * How to open the transcript on screen again in a fresh worker (the old one stopped): build the
 * demo there, send the messages the page has (small ones: a replay result, an epoch), or load a
 * stored session.
 */
export type TranscriptSource =
  | { readonly kind: 'demo' }
  | { readonly kind: 'messages'; readonly messages: readonly Message[] }
  | { readonly kind: 'session'; readonly sessionId: string }
  | { readonly kind: 'worker-only' };

/** What an open hands over: the document, its metadata and the pins it comes with. */
interface OpenedTranscript {
  readonly opened: OpenedDocument;
  readonly metadata: TranscriptMetadata;
  readonly pinned?: readonly number[];
}

/** A stored session as opened: where a requested message is, and a chat session's loop state. */
export interface OpenedStored {
  /** Index of the requested stored message among the live ones; null when not asked or not live. */
  readonly messageIndex: number | null;
  /** Set for a chat session (opened as its request context); null otherwise. */
  readonly conversation: StoredConversation | null;
}

/** The message open in the detail view. */
export interface MessageDetailState {
  readonly index: number;
  readonly message: Message;
}

/**
 * The transcript on screen and its token counts. The worker holds the messages; the page holds
 * a `TranscriptView` of them (count, metadata, roles, rows and messages on demand). Rough counts
 * come back with the document; exact counts arrive later from the worker and are kept per
 * encoding, so switching back to an encoding already counted is instant. `revision` names the
 * worker's copy: plans computed on another revision are stale.
 */
export class TranscriptState {
  readonly #compute: ComputeClient;
  readonly #documentId = CURRENT_DOCUMENT_ID;
  #openedInGeneration = -1;
  #countRequest = 0;
  #openRequest = 0;
  #detailRequest = 0;
  #source: TranscriptSource = { kind: 'worker-only' };
  #listeners: (() => void)[] = [];

  view = $state.raw<TranscriptView | null>(null);
  /** The list's rows of the view, fetched as it scrolls. */
  rows = $state.raw<MessageRows | null>(null);
  rough = $state.raw<TokenCounts | null>(null);
  exactByEncoding = $state.raw<Partial<Record<TokenEncoding, TokenCounts>>>({});
  status = $state<TranscriptStatus>('empty');
  progress = $state.raw<{ done: number; total: number } | null>(null);
  error = $state<string | null>(null);
  /** The message shown in the detail view, once it arrived from the worker. */
  detail = $state.raw<MessageDetailState | null>(null);
  /**
   * The pinned messages of the transcript on screen: stored on its session when it has one
   * (a stored session, an import once stored), in memory until then (the demo, a replay result).
   */
  readonly pins = new MessagePins((index, pinned) => this.#storePin(index, pinned));
  readonly #strategyName: () => StrategyName;

  /** `strategyName`: whose rough estimator measures the messages (the settings' choice). */
  constructor(compute: ComputeClient, strategyName: () => StrategyName) {
    this.#compute = compute;
    this.#strategyName = strategyName;
  }

  get documentId(): string {
    return this.#documentId;
  }

  /** The worker revision of the open document; null while it is being opened. */
  get revision(): number | null {
    return this.view?.revision ?? null;
  }

  get metadata(): TranscriptMetadata | null {
    return this.view?.metadata ?? null;
  }

  /** Calls `listener` whenever the transcript, its revision or its counts change. */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Counts for the chosen estimator, or null while they are still being computed. */
  countsFor(estimator: Estimator): TokenCounts | null {
    return estimator === 'rough' ? this.rough : (this.exactByEncoding[estimator] ?? null);
  }

  /** Opens the built-in demo, which the worker builds: the page never holds its messages. */
  async loadDemo(estimator: Estimator): Promise<void> {
    await this.#openQuietly({ kind: 'demo' }, estimator, () =>
      this.#compute
        .run((api) => api.openDemo(this.#documentId, this.#strategyName()))
        .then((opened) => ({ opened, metadata: opened.metadata! })),
    );
  }

  /** Opens a transcript the page holds (a small one: an epoch) by sending it to the worker. */
  async load(transcript: Transcript, estimator: Estimator): Promise<void> {
    await this.#openQuietly({ kind: 'messages', messages: transcript.messages }, estimator, () =>
      this.#compute
        .run((api) =>
          api.openDocument(
            this.#documentId,
            // Sent as they are: every caller's messages are plain data (a `$state.raw`
            // conversation, a worker's reply). A deep snapshot of the demo, when the page still
            // built it, was 20–28 ms of the first screen's longest task, for a copy postMessage
            // makes anyway.
            transcript.messages,
            this.#strategyName(),
            {
              tools: $state.snapshot(transcript.metadata.tools ?? []),
              compactionPoints: $state.snapshot(transcript.metadata.compactionPoints),
            },
            $state.snapshot<TranscriptMetadata>(transcript.metadata),
          ),
        )
        .then((opened) => ({ opened, metadata: transcript.metadata })),
    );
  }

  /**
   * Opens a stored session, loaded by the worker from IndexedDB: where `messageId` (a search hit)
   * is in it, and for a chat session what its loop keeps. Null when a newer open overtook it.
   */
  async openStored(
    sessionId: string,
    estimator: Estimator,
    messageId: number | null = null,
  ): Promise<OpenedStored | null> {
    let result: OpenedStored = { messageIndex: null, conversation: null };
    const opened = await this.#open({ kind: 'session', sessionId }, estimator, async () => {
      const reply = await this.#compute.run<OpenStoredSessionReply>((api) =>
        api.openStoredSession(this.#documentId, sessionId, this.#strategyName(), messageId),
      );
      if (!reply.ok) throw new Error(describeOpenError(reply.error));
      result = { messageIndex: reply.value.messageIndex, conversation: reply.value.conversation };
      return {
        opened: reply.value.opened,
        metadata: reply.value.opened.metadata!,
        pinned: reply.value.pinned,
      };
    });
    return opened ? result : null;
  }

  /**
   * Appends `messages.slice(from)` to the transcript on screen, which holds `messages[:from]` (the
   * live chat's newest turn): the worker measures only the new messages, and exact counts are
   * kept for the old ones. Returns false, changing nothing, when the worker's document is not the
   * one on screen any more (another transcript was opened, or the worker restarted): the caller
   * opens the whole transcript instead.
   */
  async append(
    messages: readonly Message[],
    from: number,
    metadata: TranscriptMetadata,
    estimator: Estimator,
  ): Promise<boolean> {
    const view = this.view;
    if (!view || view.count !== from || this.#openedInGeneration !== this.#compute.generation) return false;
    const request = this.#openRequest;
    const added: Message[] = $state.snapshot(messages.slice(from));
    const opened = await this.#compute.run((api) =>
      api.appendToDocument(this.#documentId, view.revision, added, this.#strategyName()),
    );
    if (!opened) return false;
    // Opened meanwhile: whatever was opened is newer than this append.
    if (request !== this.#openRequest || this.view !== view) return true;
    this.#source = { kind: 'messages', messages };
    this.#countRequest += 1;
    const known = this.exactByEncoding;
    this.exactByEncoding = {};
    this.#show(opened, metadata, false);
    // The map redraws once the counts it is drawn in are complete again (only the new messages
    // are counted), so an exact map does not flicker to rough on every turn.
    if (estimator === 'rough' || !known[estimator]) this.#changed();
    await this.count(estimator);
    return true;
  }

  /**
   * Opens a copy of another worker document (a replay result) as the transcript on screen.
   * `fallback`: its messages, should the worker have to start over. `pinned`: the pins it
   * comes with (a compaction's result carries its input's); `sessionId`: the stored session
   * that holds exactly these messages (a saved result), where its pins are stored from now on.
   */
  async openCopy(
    fromDocumentId: string,
    metadata: TranscriptMetadata,
    fallback: readonly Message[],
    estimator: Estimator,
    options: { readonly pinned?: readonly number[]; readonly sessionId?: string | null } = {},
  ): Promise<void> {
    const source: TranscriptSource = options.sessionId
      ? { kind: 'session', sessionId: options.sessionId }
      : { kind: 'messages', messages: fallback };
    await this.#openQuietly(source, estimator, () =>
      this.#compute
        .run((api) =>
          api.copyDocument(
            fromDocumentId,
            this.#documentId,
            this.#strategyName(),
            $state.snapshot<TranscriptMetadata>(metadata),
          ),
        )
        .then((opened) => ({ opened, metadata, pinned: options.pinned ?? [] })),
    );
  }

  /** Takes over a document the worker opened itself (an import), without sending it back. */
  async adopt(opened: OpenedDocument, metadata: TranscriptMetadata, estimator: Estimator): Promise<void> {
    this.#openRequest += 1;
    this.#reset({ kind: 'worker-only' });
    this.#openedInGeneration = this.#compute.generation;
    this.pins.reset([]);
    this.#show(opened, metadata);
    await this.count(estimator);
  }

  /**
   * Once the transcript on screen is stored (an import, the demo), a fresh worker can load it
   * from there and its pins are stored there. `storedPins`: the pins the store wrote; any pin
   * changed while it was being written is stored now.
   */
  storedAs(sessionId: string, revision: number, storedPins: readonly number[] = []): void {
    if (this.revision !== revision) return;
    this.#source = { kind: 'session', sessionId };
    const stored = new Set(storedPins);
    const current = new Set(this.pins.indices);
    for (const index of new Set([...stored, ...current])) {
      if (stored.has(index) === current.has(index)) continue;
      void this.#storePin(index, current.has(index)).catch((error: unknown) => {
        this.pins.error = `Could not store the pin of message #${index}: ${error instanceof Error ? error.message : String(error)}`;
      });
    }
  }

  /** Pins or unpins message `index` of the transcript on screen (a system message cannot be pinned). */
  async togglePin(index: number): Promise<void> {
    const view = this.view;
    if (!view || index < 0 || index >= view.count || view.roleOf(index) === 'system') return;
    await this.pins.toggle(index);
  }

  /** Reopens the document if the worker was restarted since (a cancelled computation). */
  async ensureOpen(): Promise<void> {
    if (this.#openedInGeneration === this.#compute.generation && this.#compute.isRunning) return;
    const view = this.view;
    const source = this.#source;
    if (!view) return;
    if (source.kind === 'worker-only') {
      throw new Error('The worker stopped before this transcript was stored; import it again.');
    }
    const opened = await this.#reopenFrom(source, view);
    this.#openedInGeneration = this.#compute.generation;
    if (this.view !== view) return;
    this.#show(opened, view.metadata);
  }

  /** Makes sure exact counts for the estimator exist; rough needs no work. */
  async count(estimator: Estimator): Promise<void> {
    const view = this.view;
    if (estimator === 'rough' || this.exactByEncoding[estimator] || !view) {
      this.status = view ? 'ready' : 'empty';
      return;
    }
    const request = ++this.#countRequest;
    this.status = 'counting';
    this.progress = { done: 0, total: view.count };
    try {
      await this.ensureOpen();
      const onProgress = workerCallback((done: number, total: number) => {
        if (request === this.#countRequest) this.progress = { done, total };
      });
      const counts = await this.#compute.run((api) =>
        api.countExact(this.#documentId, estimator, onProgress),
      );
      // A newer request (another estimator, another transcript) supersedes this one.
      if (request !== this.#countRequest || this.view?.documentId !== view.documentId) return;
      this.exactByEncoding = { ...this.exactByEncoding, [estimator]: counts };
      this.status = 'ready';
      this.progress = null;
      this.#changed();
    } catch (error) {
      if (request === this.#countRequest) this.#fail(error);
    }
  }

  /** Shows message `index` in the detail view (null closes it); it arrives from the worker. */
  async showDetail(index: number | null): Promise<void> {
    const request = ++this.#detailRequest;
    const view = this.view;
    if (index === null || !view) {
      this.detail = null;
      return;
    }
    if (this.detail?.index !== index) this.detail = null;
    try {
      const message = await view.message(index);
      if (request !== this.#detailRequest || this.view !== view) return;
      this.detail = message ? { index, message } : null;
    } catch {
      if (request === this.#detailRequest) this.detail = null;
    }
  }

  /**
   * Opens something new as the transcript on screen. The old one stays drawn until the new one
   * is there; an open overtaken by a newer one is dropped. Returns whether it was shown.
   */
  async #open(
    source: TranscriptSource,
    estimator: Estimator,
    open: () => Promise<OpenedTranscript>,
  ): Promise<boolean> {
    const request = ++this.#openRequest;
    this.#countRequest += 1;
    this.status = 'loading';
    try {
      const { opened, metadata, pinned } = await open();
      this.#openedInGeneration = this.#compute.generation;
      if (request !== this.#openRequest) return false;
      this.#reset(source);
      this.pins.reset(pinned ?? []);
      this.#show(opened, metadata);
      await this.count(estimator);
      return true;
    } catch (error) {
      if (request === this.#openRequest) this.#fail(error);
      throw error;
    }
  }

  /** `#open` for a transcript whose failure is shown as the status, not thrown. */
  async #openQuietly(
    source: TranscriptSource,
    estimator: Estimator,
    open: () => Promise<OpenedTranscript>,
  ): Promise<void> {
    await this.#open(source, estimator, open).catch(() => undefined);
  }

  /** Opens the transcript on screen again, in a worker that does not hold it, from its source. */
  #reopenFrom(
    source: Exclude<TranscriptSource, { kind: 'worker-only' }>,
    view: TranscriptView,
  ): Promise<OpenedDocument> {
    switch (source.kind) {
      case 'demo':
        return this.#compute.run((api) => api.openDemo(this.#documentId, this.#strategyName()));
      case 'messages':
        return this.#compute.run((api) =>
          api.openDocument(
            this.#documentId,
            [...source.messages],
            this.#strategyName(),
            { tools: view.metadata.tools ?? [], compactionPoints: view.metadata.compactionPoints },
            $state.snapshot<TranscriptMetadata>(view.metadata),
          ),
        );
      case 'session':
        return this.#reopenStored(source.sessionId);
    }
  }

  async #reopenStored(sessionId: string): Promise<OpenedDocument> {
    const reply = await this.#compute.run<OpenStoredSessionReply>((api) =>
      api.openStoredSession(this.#documentId, sessionId, this.#strategyName()),
    );
    if (!reply.ok) throw new Error(describeOpenError(reply.error));
    return reply.value.opened;
  }

  /** Stores a pin on the session the transcript on screen is stored as; in memory until it is stored. */
  async #storePin(index: number, pinned: boolean): Promise<void> {
    const source = this.#source;
    if (source.kind !== 'session' || !this.view) return;
    await this.ensureOpen();
    const revision = this.revision;
    if (this.#source !== source || revision === null) throw new Error('another transcript is on screen now');
    const reply = await this.#compute.run<PinStoredMessageReply>((api) =>
      api.pinStoredMessage({
        sessionId: source.sessionId,
        documentId: this.#documentId,
        revision,
        index,
        pinned,
      }),
    );
    if (!reply.ok) throw new Error(describePinError(reply.error));
  }

  #reset(source: TranscriptSource): void {
    this.#countRequest += 1;
    this.#source = source;
    this.exactByEncoding = {};
    this.error = null;
    this.progress = null;
    this.detail = null;
    this.status = 'loading';
  }

  #show(opened: OpenedDocument, metadata: TranscriptMetadata, notify = true): void {
    const view = workerTranscriptView(this.#compute, this.#documentId, opened, metadata);
    this.view = view;
    this.rows = new MessageRows(view);
    this.rough = { perMessage: opened.perMessage, total: opened.total };
    if (notify) this.#changed();
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  #fail(error: unknown): void {
    if (error instanceof ComputeCancelledError) {
      this.status = this.view ? 'ready' : 'empty';
      this.progress = null;
      return;
    }
    this.status = 'error';
    this.error = error instanceof Error ? error.message : String(error);
  }
}

function describePinError(error: { type: string; message?: string }): string {
  return error.type === 'SessionNotFound' ? 'the session no longer exists' : (error.message ?? error.type);
}

function describeOpenError(error: { type: string; message?: string }): string {
  return error.type === 'SessionNotFound' ? 'That session no longer exists.' : (error.message ?? error.type);
}
