import type { Preset } from '../core/presets/preset.ts';
import { isolateBidi } from '../core/shared/isolate-bidi.ts';
import { plural } from '../core/shared/plural.ts';
import type { LineageSegmentDescription } from '../core/sessions/describe-lineage-segment.ts';
import type { Transcript } from '../core/transcript/transcript.ts';
import type { StoredSessionMessages } from '../io/compute/worker-stored-sessions.ts';
import type { SearchHit } from '../io/db/search-index.ts';
import type { SessionRepository } from '../io/db/session-repository.ts';
import type { SessionRow } from '../io/db/session-row.ts';
import { toConversationEntries, type ConversationEntry } from './conversation-entry.ts';
import { LiveQueryState } from './live-query.svelte.ts';
import {
  ConversationEpochsState,
  type EpochsRepository,
  type HistoryChange,
} from './conversation-epochs-state.svelte.ts';
import type { LockManagerLike } from '../io/db/compaction-lock.ts';
import {
  exportFileStem,
  SESSION_EXPORT_FORMATS,
  type ExportFile,
  type SessionExportFormat,
} from './session-export-formats.ts';

// The UI may not import io (layer rule): it gets these shapes from here.
export type { SearchHit };

/** Waits this long after the last keystroke before searching, so typing does not query per key. */
export const SEARCH_DEBOUNCE_MS = 200;
/** Hits shown for one query. */
export const SEARCH_RESULT_LIMIT = 50;

/**
 * The part of the session repository the panel uses on the page: session rows only (the real one
 * in the app and the tests). Whatever reads messages goes through `StoredSessionMessages`.
 */
export type SessionsRepository = Pick<
  SessionRepository,
  'listSessions' | 'getSession' | 'lineageRootToTip' | 'resolveResumeSessionId' | 'renameSession'
> &
  EpochsRepository;

/** What opening a stored session in the workspace needs. */
export interface OpenSessionRequest {
  sessionId: string;
  /** The stored id of the message to select and scroll to (a search hit). */
  messageId: number | null;
  /** Where the stored session came from (`SessionRow.source`: 'chat', 'import', 'demo', 'replay'). */
  source: string;
}

export interface SessionsStateDependencies {
  repository: SessionsRepository;
  /** Search, lineage descriptions, export and deletion, done where the messages are (the worker). */
  stored: StoredSessionMessages;
  preset: () => Preset;
  /**
   * Shows a stored session in the workspace (AppState does the showing, the worker the loading);
   * resolves to whether the requested message is in its live transcript; rejects when the
   * session cannot be opened.
   */
  openInWorkspace: (request: OpenSessionRequest) => Promise<boolean>;
  /** Continues a chat conversation in the chat; without it, or for other sessions, resuming opens the tip in the workspace. */
  resumeInChat?: (sessionId: string) => Promise<void>;
  /** Shows a stored compaction's history in the workspace, read-only. */
  openReadOnly?: (transcript: Transcript) => Promise<void>;
  /** Told after an undo or redo here changed a conversation (a chat showing it reloads). */
  onHistoryChanged?: (change: HistoryChange) => void;
  /** The cross-tab compaction lock (tests share one between "tabs"). */
  locks?: LockManagerLike;
  now?: () => number;
}

/** One session of the lineage view: its place in the chain and what it holds. */
export interface LineageSegmentView {
  session: SessionRow;
  /** 1-based: the `#n` of the segment. */
  number: number;
  description: LineageSegmentDescription;
}

export type DeleteScope = 'conversation' | 'segment';

/** What a deletion will do, for the confirmation dialog. */
export interface DeletePlan {
  scope: DeleteScope;
  sessionIds: string[];
  messageCount: number;
  /** One sentence each: what goes, and what happens to the rest of the chain. */
  consequences: string[];
}

/**
 * The sessions panel (SPEC §1 flow 7): every stored session grouped into conversations, live
 * through a Dexie `liveQuery`; the lineage of the selected conversation; search over every stored
 * message; open, resume, export, rename and delete. The repository does the storing; this class
 * only reads it reactively and turns the panel's actions into its calls.
 */
export class SessionsState {
  readonly #deps: SessionsStateDependencies;
  readonly #rows: LiveQueryState<SessionRow[]>;
  #selectedId = $state<string | null>(null);
  #query = $state('');
  #hits = $state.raw<SearchHit[]>([]);
  #searchedQuery = $state('');
  #searching = $state(false);
  #notice = $state<{ text: string; tone: 'info' | 'error' } | null>(null);
  #searchTimer: ReturnType<typeof setTimeout> | null = null;
  #searchSerial = 0;

  readonly #conversations = $derived.by(() => toConversationEntries(this.sessions, this.#deps.preset()));

  /** The selected conversation; null when nothing is selected or it was deleted. */
  readonly #selected = $derived.by(() => {
    const id = this.#selectedId;
    if (id === null) return null;
    return (
      this.#conversations.find(
        (conversation) =>
          conversation.id === id ||
          conversation.segments.some((row) => row.id === id) ||
          conversation.side.some((row) => row.id === id),
      ) ?? null
    );
  });

  /** A string, so a list refresh that keeps the same conversation selected changes nothing below. */
  readonly #selectedRootId = $derived(this.#selected?.id ?? null);

  /** A live query per selected conversation, keyed by its root so a rotation keeps it. */
  readonly #lineage = $derived.by(() => {
    const rootId = this.#selectedRootId;
    if (rootId === null) return null;
    return new LiveQueryState<LineageSegmentView[] | null>(() => this.#loadLineage(rootId), null);
  });

  /** The selected conversation's compaction epochs: listed, opened read-only, exported, undone, redone. */
  readonly compactions: ConversationEpochsState;

  constructor(deps: SessionsStateDependencies) {
    this.#deps = deps;
    this.#rows = new LiveQueryState(() => deps.repository.listSessions(), []);
    this.compactions = new ConversationEpochsState({
      repository: deps.repository,
      selectedRootId: () => this.#selectedRootId,
      liveSessionId: () => this.#selected?.tip.id ?? null,
      title: () => this.#selected?.title ?? null,
      ...(deps.openReadOnly ? { openReadOnly: deps.openReadOnly } : {}),
      ...(deps.onHistoryChanged ? { onHistoryChanged: deps.onHistoryChanged } : {}),
      ...(deps.locks ? { locks: deps.locks } : {}),
    });
  }

  /** Every stored session, newest started first. */
  get sessions(): SessionRow[] {
    return this.#rows.current;
  }

  get loaded(): boolean {
    return this.#rows.loaded;
  }

  get loadError(): string | null {
    return this.#rows.error;
  }

  get conversations(): ConversationEntry[] {
    return this.#conversations;
  }

  get selected(): ConversationEntry | null {
    return this.#selected;
  }

  /** The selected conversation's chain, root → tip, with what each segment holds; null while loading. */
  get lineage(): LineageSegmentView[] | null {
    return this.#lineage?.current ?? null;
  }

  get notice(): { text: string; tone: 'info' | 'error' } | null {
    return this.#notice;
  }

  dismissNotice(): void {
    this.#notice = null;
  }

  select(sessionId: string | null): void {
    this.#selectedId = sessionId;
  }

  // ---- search ----------------------------------------------------------------------------------

  get query(): string {
    return this.#query;
  }

  get hits(): SearchHit[] {
    return this.#hits;
  }

  /** The query the hits answer (the box may already hold a newer one). */
  get searchedQuery(): string {
    return this.#searchedQuery;
  }

  get searching(): boolean {
    return this.#searching;
  }

  /** Sets the search text and searches shortly after typing stops. */
  setQuery(query: string): void {
    this.#query = query;
    if (this.#searchTimer !== null) clearTimeout(this.#searchTimer);
    this.#searchTimer = setTimeout(() => void this.search(), SEARCH_DEBOUNCE_MS);
  }

  /**
   * Searches every stored message, continuation ancestors and compaction-archived turns
   * included. The newest query wins: an older search finishing late is dropped.
   */
  async search(): Promise<void> {
    if (this.#searchTimer !== null) clearTimeout(this.#searchTimer);
    this.#searchTimer = null;
    const query = this.#query.trim();
    const serial = ++this.#searchSerial;
    if (query === '') {
      this.#hits = [];
      this.#searchedQuery = '';
      this.#searching = false;
      return;
    }
    this.#searching = true;
    try {
      const hits = await this.#deps.stored.search(query, { limit: SEARCH_RESULT_LIMIT });
      if (serial !== this.#searchSerial) return;
      this.#hits = hits;
      this.#searchedQuery = query;
    } catch (error) {
      if (serial === this.#searchSerial) this.#fail('Search failed', error);
    } finally {
      if (serial === this.#searchSerial) this.#searching = false;
    }
  }

  clearSearch(): void {
    this.#query = '';
    void this.search();
  }

  // ---- opening and resuming --------------------------------------------------------------------

  /** Shows a stored session's live transcript in the workspace (the worker loads it). */
  async open(sessionId: string): Promise<boolean> {
    try {
      const session = await this.#deps.repository.getSession(sessionId);
      if (session === undefined) {
        this.#notice = { text: 'That session no longer exists.', tone: 'error' };
        return false;
      }
      await this.#deps.openInWorkspace({ sessionId, messageId: null, source: session.source });
      this.#selectedId = sessionId;
      return true;
    } catch (error) {
      this.#fail('Could not open the session', error);
      return false;
    }
  }

  /** Opens the session a search hit is in, at the hit's message (found by its stored id). */
  async openHit(hit: SearchHit): Promise<void> {
    try {
      const session = await this.#deps.repository.getSession(hit.sessionId);
      if (session === undefined) {
        this.#notice = { text: 'That session no longer exists.', tone: 'error' };
        return;
      }
      const found = await this.#deps.openInWorkspace({
        sessionId: hit.sessionId,
        messageId: hit.messageId,
        source: session.source,
      });
      this.#selectedId = hit.sessionId;
      if (!found) {
        // Archived by an in-place compaction: not in the live transcript, but in the lineage view.
        this.#notice = {
          text: 'That message was compacted away; it is kept in the lineage export.',
          tone: 'info',
        };
      }
    } catch (error) {
      this.#fail('Could not open the search hit', error);
    }
  }

  /**
   * Continues a conversation where Hermes would (`resolve_resume_session_id`: the tip's newest
   * live session): a chat conversation in the chat, anything else in the workspace (an import
   * holds its system prompt among its messages, which a chat would send twice).
   */
  async resume(sessionId: string): Promise<void> {
    try {
      const target = await this.#deps.repository.resolveResumeSessionId(sessionId, this.#deps.preset());
      const session = await this.#deps.repository.getSession(target);
      if (this.#deps.resumeInChat && session?.source === 'chat') {
        await this.#deps.resumeInChat(target);
        this.#selectedId = target;
      } else {
        await this.open(target);
      }
    } catch (error) {
      this.#fail('Could not resume the conversation', error);
    }
  }

  // ---- export, rename, delete ------------------------------------------------------------------

  /** The whole chain of `sessionId`, root → tip, as a file in one of the export formats. */
  async exportFile(sessionId: string, format: SessionExportFormat): Promise<ExportFile | null> {
    const info = SESSION_EXPORT_FORMATS.find((entry) => entry.format === format);
    if (info === undefined) return null;
    try {
      const now = this.#deps.now?.() ?? Date.now();
      const [session, blob] = await Promise.all([
        this.#deps.repository.getSession(sessionId),
        this.#deps.stored.exportLineage({
          sessionId,
          format,
          preset: this.#deps.preset().name,
          timestampIso: new Date(now).toISOString(),
          mimeType: info.mimeType,
        }),
      ]);
      const conversation = this.#conversationOf(sessionId);
      const title = conversation?.title ?? session?.title ?? null;
      return {
        fileName: `${exportFileStem(title, conversation?.id ?? sessionId)}${info.fileSuffix}`,
        mimeType: info.mimeType,
        blob,
      };
    } catch (error) {
      this.#fail('Export failed', error);
      return null;
    }
  }

  /** Renames one session; returns the reason when it was refused (title in use, say). */
  async rename(sessionId: string, title: string): Promise<string | null> {
    const result = await this.#deps.repository.renameSession(sessionId, title);
    if (result.ok) return null;
    const error = result.error;
    switch (error.type) {
      case 'TitleInUse':
        return `Another session is already called “${isolateBidi(error.title)}”.`;
      case 'SessionNotFound':
        return 'That session no longer exists.';
      case 'StorageFull':
        return 'The browser storage is full; nothing was changed.';
      default:
        return 'Could not rename the session.';
    }
  }

  /** What deleting `sessionId` (its whole conversation, or just that segment) would remove. */
  deletePlan(sessionId: string, scope: DeleteScope): DeletePlan | null {
    const conversation = this.#conversationOf(sessionId);
    if (conversation === null) return null;
    if (scope === 'conversation') {
      const rows = [...conversation.segments, ...conversation.side];
      const count = rows.length;
      return {
        scope,
        sessionIds: rows.map((row) => row.id).reverse(),
        messageCount: conversation.storedMessages,
        consequences: [
          `Deletes ${count === 1 ? 'the session' : `all ${count} sessions of the conversation`} with ${plural(conversation.storedMessages, 'stored message')}, usage records and stored tool outputs.`,
          'This cannot be undone; export the conversation first to keep a copy.',
        ],
      };
    }
    const index = conversation.segments.findIndex((row) => row.id === sessionId);
    const row =
      index >= 0 ? conversation.segments[index] : conversation.side.find((side) => side.id === sessionId);
    if (row === undefined) return null;
    const consequences = [
      `Deletes ${segmentName(row, index)} with ${plural(row.messageCount, 'message')} and its usage records.`,
    ];
    const last = conversation.segments.length - 1;
    if (index < 0 || conversation.segments.length === 1) {
      // A side continuation or a single session: nothing else depends on it.
    } else if (index === 0) {
      consequences.push(
        `#2 becomes the start of the conversation; the summary it opens with still stands in for the deleted turns.`,
      );
    } else if (index === last) {
      consequences.push(
        `#${index} becomes the tip again, although it ended with a compaction: resuming continues there.`,
      );
    } else {
      consequences.push(
        `The chain splits in two: #1–#${index} stay one conversation, and #${index + 2}–#${last + 1} become another.`,
      );
    }
    if (index >= 0 && index < last)
      consequences.push('Stored tool outputs, if any, move to the next segment, which may still cite them.');
    consequences.push('This cannot be undone.');
    return { scope, sessionIds: [row.id], messageCount: row.messageCount, consequences };
  }

  /** Carries out a deletion plan; returns whether everything went. */
  async delete(plan: DeletePlan): Promise<boolean> {
    for (const id of plan.sessionIds) {
      const result = await this.#deps.stored.deleteSession(id);
      if (!result.ok && result.error.type !== 'SessionNotFound') {
        this.#notice = {
          text:
            result.error.type === 'StorageFull'
              ? 'The browser storage is full; the deletion could not finish.'
              : 'Could not delete the session.',
          tone: 'error',
        };
        return false;
      }
    }
    this.#notice = { text: `Deleted ${plural(plan.sessionIds.length, 'session')}.`, tone: 'info' };
    this.#hits = this.#hits.filter((hit) => !plan.sessionIds.includes(hit.sessionId));
    return true;
  }

  /** Where a session sits in its conversation, for search hits: `#1 of 3, compacted`. */
  locate(sessionId: string): { number: number; of: number; ended: boolean } | null {
    const conversation = this.#conversationOf(sessionId);
    const index = conversation?.segments.findIndex((row) => row.id === sessionId) ?? -1;
    const row = index >= 0 ? conversation?.segments[index] : undefined;
    if (conversation === null || row === undefined) return null;
    return { number: index + 1, of: conversation.segments.length, ended: row.endReason === 'compression' };
  }

  #conversationOf(sessionId: string): ConversationEntry | null {
    return (
      this.#conversations.find(
        (conversation) =>
          conversation.segments.some((row) => row.id === sessionId) ||
          conversation.side.some((row) => row.id === sessionId),
      ) ?? null
    );
  }

  /**
   * The chain's session rows are read here (the live query follows them: an append or a rotation
   * changes them); what each segment holds is described by the worker, which reads the messages.
   */
  async #loadLineage(rootId: string): Promise<LineageSegmentView[]> {
    const preset = this.#deps.preset();
    const chain = await this.#deps.repository.lineageRootToTip(rootId, preset);
    const described = await this.#deps.stored.describeLineage(rootId, preset.name);
    const descriptions = new Map(described.map((entry) => [entry.sessionId, entry.description]));
    return chain.map((session, index) => ({
      session,
      number: index + 1,
      // A session the worker's read did not see yet (it raced a rotation) until the next refresh.
      description: descriptions.get(session.id) ?? {
        messageCount: session.messageCount,
        roughTokens: 0,
        summaryIndex: null,
        summaryPreview: null,
      },
    }));
  }

  #fail(what: string, error: unknown): void {
    this.#notice = {
      text: `${what}: ${error instanceof Error ? error.message : String(error)}`,
      tone: 'error',
    };
  }
}

function segmentName(row: SessionRow, index: number): string {
  return index >= 0 ? `segment #${index + 1}` : `the side session “${isolateBidi(row.title ?? row.id)}”`;
}
