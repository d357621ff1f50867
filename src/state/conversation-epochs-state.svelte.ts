import { exportCompactionJson, exportCompactionMarkdown } from '../core/export/export-compaction.ts';
import type { CompactionEpoch } from '../core/sessions/compaction-epoch.ts';
import { redoTarget, undoTarget } from '../core/sessions/epoch-navigation.ts';
import type { Transcript } from '../core/transcript/transcript.ts';
import { withCompactionLock, type LockManagerLike } from '../io/db/compaction-lock.ts';
import type { SessionRepository } from '../io/db/session-repository.ts';
import { LiveQueryState } from './live-query.svelte.ts';
import { exportFileStem, type ExportFile } from './session-export-formats.ts';

// The UI may not import io or core's storage types through io: it gets the epoch shape here.
export type { CompactionEpoch };

export type EpochsRepository = Pick<
  SessionRepository,
  'listConversationCompactions' | 'loadEpochMessages' | 'undoCompaction' | 'redoCompaction'
>;

export type EpochExportFormat = 'markdown' | 'json';

/** An undo or redo: the sessions it touched, and where the conversation is live now. */
export interface HistoryChange {
  readonly sessionIds: readonly string[];
  readonly liveSessionId: string;
}
/** Which history of an epoch to open: the one it replaced, or the one it produced. */
export type EpochSide = 'before' | 'after';

export interface ConversationEpochsDependencies {
  repository: EpochsRepository;
  /** The root of the conversation selected in the sessions panel. */
  selectedRootId: () => string | null;
  /** Its live session (the compression tip): where undo and redo apply. */
  liveSessionId: () => string | null;
  /** Its title, for exported file names and read-only views. */
  title: () => string | null;
  /** Shows a transcript in the workspace, read-only. */
  openReadOnly?: (transcript: Transcript) => Promise<void>;
  /** Told after undo or redo changed a conversation, so a chat showing it reloads. */
  onHistoryChanged?: (change: HistoryChange) => void;
  /** The cross-tab lock compaction uses; the browser's Web Locks by default. */
  locks?: LockManagerLike;
}

/**
 * The compaction epochs of the conversation selected in the sessions panel (ROUND2 §4): listed
 * live from IndexedDB like a chain, each one openable read-only (what it replaced, what it
 * produced) and exportable as Markdown or JSON; the newest can be undone and the one undone last
 * redone, under the same cross-tab lock as compaction, refusing when another tab got there first.
 */
export class ConversationEpochsState {
  readonly #deps: ConversationEpochsDependencies;
  #busy = $state(false);
  #notice = $state<{ text: string; tone: 'info' | 'error' } | null>(null);

  readonly #query = $derived.by(() => {
    const rootId = this.#deps.selectedRootId();
    if (rootId === null) return null;
    return new LiveQueryState<CompactionEpoch[]>(
      () => this.#deps.repository.listConversationCompactions(rootId),
      [],
    );
  });

  constructor(deps: ConversationEpochsDependencies) {
    this.#deps = deps;
  }

  /** Oldest first, numbered from 1; empty before the first compaction. */
  get epochs(): CompactionEpoch[] {
    return this.#query?.current ?? [];
  }

  get loaded(): boolean {
    return this.#query === null || this.#query.loaded;
  }

  get undoTarget(): CompactionEpoch | null {
    const live = this.#deps.liveSessionId();
    return live === null ? null : undoTarget(this.epochs, live);
  }

  get redoTarget(): CompactionEpoch | null {
    const live = this.#deps.liveSessionId();
    return live === null ? null : redoTarget(this.epochs, live);
  }

  get busy(): boolean {
    return this.#busy;
  }

  get notice(): { text: string; tone: 'info' | 'error' } | null {
    return this.#notice;
  }

  undo(): Promise<boolean> {
    return this.#change('undo');
  }

  redo(): Promise<boolean> {
    return this.#change('redo');
  }

  /** Opens one side of an epoch in the workspace, read-only. */
  async open(epoch: CompactionEpoch, side: EpochSide): Promise<boolean> {
    const histories = await this.#deps.repository.loadEpochMessages(epoch.id);
    if (histories === null || !this.#deps.openReadOnly) {
      this.#notice = { text: 'That compaction is no longer stored.', tone: 'error' };
      return false;
    }
    const title = this.#deps.title() ?? 'Conversation';
    await this.#deps.openReadOnly({
      messages: histories[side],
      metadata: {
        format: 'internal',
        title: `${title} — compaction ${epoch.number}, ${side === 'before' ? 'what it replaced' : 'what it produced'} (read-only)`,
        compactionPoints: [],
        sourceSessionId: side === 'before' ? epoch.sessionId : (epoch.childSessionId ?? epoch.sessionId),
      },
    });
    return true;
  }

  /** One epoch as a file (Markdown or JSON): summary, boundaries, settings, fidelity, ledger. */
  exportFile(epoch: CompactionEpoch, format: EpochExportFormat): ExportFile {
    const title = this.#deps.title();
    const stem = `${exportFileStem(title, epoch.sessionId)}-compaction-${epoch.number}`;
    return format === 'json'
      ? {
          fileName: `${stem}.json`,
          mimeType: 'application/json',
          blob: new Blob([exportCompactionJson(epoch, { title })], { type: 'application/json' }),
        }
      : {
          fileName: `${stem}.md`,
          mimeType: 'text/markdown',
          blob: new Blob([exportCompactionMarkdown(epoch, { title })], { type: 'text/markdown' }),
        };
  }

  dismissNotice(): void {
    this.#notice = null;
  }

  async #change(direction: 'undo' | 'redo'): Promise<boolean> {
    const live = this.#deps.liveSessionId();
    const target = direction === 'undo' ? this.undoTarget : this.redoTarget;
    if (live === null || target === null || this.#busy) return false;
    this.#busy = true;
    try {
      const locked = await withCompactionLock(
        live,
        () =>
          direction === 'undo'
            ? this.#deps.repository.undoCompaction(live, { expectedEpochId: target.id })
            : this.#deps.repository.redoCompaction(live, { expectedEpochId: target.id }),
        this.#deps.locks,
      );
      if (!locked.ok) {
        this.#notice = { text: locked.error.message, tone: 'error' };
        return false;
      }
      const changed = locked.value;
      if (!changed.ok) {
        const error = changed.error;
        this.#notice = {
          text:
            'message' in error && typeof error.message === 'string'
              ? error.message
              : 'Another tab changed this conversation first; nothing was changed here.',
          tone: 'error',
        };
        return false;
      }
      this.#notice = {
        text:
          direction === 'undo'
            ? `Compaction ${target.number} undone: the history it replaced is live again.`
            : `Compaction ${target.number} applied again.`,
        tone: 'info',
      };
      this.#deps.onHistoryChanged?.({
        sessionIds: [target.sessionId, ...(target.childSessionId ? [target.childSessionId] : [])],
        liveSessionId: changed.value.session.id,
      });
      return true;
    } finally {
      this.#busy = false;
    }
  }
}
