/**
 * The IndexedDB session repository as the runtime's `ConversationStore`: rows mapped to the
 * few fields the loop reads, the outcomes the loop handles (a session another tab rotated, a
 * compaction in progress elsewhere) as values, and a full disk as an error with the
 * repository's own plain message.
 */
import type { CompactionEpoch } from '../../core/sessions/compaction-epoch.ts';
import { redoTarget, undoTarget } from '../../core/sessions/epoch-navigation.ts';
import { ok, err, type Result } from '../../core/shared/result.ts';
import { withCompactionLock, type LockManagerLike } from '../db/compaction-lock.ts';
import type { EpochChange, EpochChangeError, SessionRepository } from '../db/session-repository.ts';
import type { SessionRow } from '../db/session-row.ts';
import type {
  ConversationStore,
  EpochRefused,
  SessionMoved,
  StoredChatSession,
  ToolResultStore,
} from './conversation-store.ts';

/** A write the browser refused (storage full) or a session that vanished. */
export class ConversationStorageError extends Error {
  override readonly name = 'ConversationStorageError';
}

export function conversationStoreFromRepository(
  repository: SessionRepository,
  options: { readonly locks?: LockManagerLike } = {},
): ConversationStore {
  return {
    async createSession(init) {
      const created = await repository.createSession(
        {
          title: init.title,
          source: 'chat',
          model: init.model,
          systemPrompt: init.systemPrompt,
          provider: init.provider,
          baseUrl: init.baseUrl,
        },
        [],
      );
      if (!created.ok) throw new ConversationStorageError(created.error.message);
      return toStored(created.value);
    },
    async getSession(sessionId) {
      const row = await repository.getSession(sessionId);
      return row === undefined ? null : toStored(row);
    },
    async appendMessages(sessionId, messages, expectedHistoryRevision) {
      const appended = await repository.appendMessages(
        sessionId,
        messages,
        expectedHistoryRevision === undefined ? {} : { expectedHistoryRevision },
      );
      if (appended.ok) return ok(undefined);
      if (appended.error.type === 'SessionAlreadyEnded')
        return err({ type: 'SessionMoved', tipSessionId: appended.error.tipSessionId });
      if (appended.error.type === 'HistoryChanged')
        return err({ type: 'SessionMoved', tipSessionId: sessionId });
      throw new ConversationStorageError(describe(appended.error));
    },
    loadMessages: (sessionId) => repository.loadMessages(sessionId),
    loadMessageEntries: (sessionId) => repository.loadMessageEntries(sessionId),
    async commitCompaction(sessionId, compressed, commit) {
      const basis = {
        ...(commit.basisMessageIds === null ? {} : { basisMessageIds: commit.basisMessageIds }),
        ...(commit.pinned && commit.pinned.length > 0 ? { pinned: commit.pinned } : {}),
      };
      if (commit.mode === 'in-place') {
        const compacted = await repository.compactInPlace(sessionId, compressed, {
          compressorState: commit.compressorState,
          systemPrompt: commit.systemPrompt,
          epoch: commit.epoch,
          ...basis,
        });
        if (compacted.ok) return ok({ session: toStored(compacted.value.session), mode: 'in-place' });
        return moved(sessionId, compacted.error);
      }
      const rotated = await repository.rotateForCompression(sessionId, compressed, {
        compressorState: commit.compressorState,
        systemPrompt: commit.systemPrompt,
        epoch: commit.epoch,
        ...basis,
      });
      if (rotated.ok) return ok({ session: toStored(rotated.value), mode: 'rotate' });
      return moved(sessionId, rotated.error);
    },
    undoCompaction: (sessionId, expectedEpochId) =>
      changeEpoch(repository.undoCompaction(sessionId, { expectedEpochId })),
    redoCompaction: (sessionId, expectedEpochId) =>
      changeEpoch(repository.redoCompaction(sessionId, { expectedEpochId })),
    async compactionHistory(sessionId) {
      const epochs = await repository.listConversationCompactions(sessionId);
      return { undo: undoTarget(epochs, sessionId), redo: redoTarget(epochs, sessionId), epochs };
    },
    getCompressionTip: (sessionId) => repository.getCompressionTip(sessionId),
    resolveResumeSessionId: (sessionId) => repository.resolveResumeSessionId(sessionId),
    async addUsage(sessionId, usage, costUsd, model, usageOptions) {
      const added = await repository.addUsage(sessionId, usage, costUsd, model, {
        compaction: usageOptions?.compaction ?? false,
        compactionId: usageOptions?.compactionId ?? null,
      });
      if (!added.ok) throw new ConversationStorageError(describe(added.error));
    },
    async saveCompressorState(sessionId, state) {
      const saved = await repository.saveCompressorState(sessionId, state);
      if (!saved.ok) throw new ConversationStorageError(describe(saved.error));
    },
    async withCompactionLock(sessionId, operation) {
      const result = await withCompactionLock(sessionId, operation, options.locks);
      return result.ok ? result : err({ type: 'CompactionInProgress', message: result.error.message });
    },
    async search(query, limit) {
      const hits = await repository.search(query, { limit, includeContext: false });
      return hits.map((hit) => ({
        sessionId: hit.sessionId,
        sessionTitle: hit.sessionTitle,
        role: hit.role,
        snippet: hit.snippet,
      }));
    },
  };
}

/** The repository's tool-output storage and reader as the runtime's `ToolResultStore`. */
export function toolResultStoreFromRepository(repository: SessionRepository): ToolResultStore {
  return {
    storage: repository.toolResultStorage,
    async read(fileName, offset, limit) {
      const slice = await repository.readPersistedOutput(fileName, offset, limit);
      return slice.ok ? { text: slice.value.content, totalChars: slice.value.totalLength } : null;
    },
  };
}

function toStored(row: SessionRow): StoredChatSession {
  return {
    id: row.id,
    title: row.title,
    systemPrompt: row.systemPrompt,
    model: row.model,
    parentSessionId: row.parentSessionId,
    endReason: row.endReason,
    compressorState: row.compressorState,
    historyRevision: row.historyRevision ?? 0,
  };
}

/** A refused commit: another tab moved the conversation on (rotated it, or changed its history). */
function moved(
  sessionId: string,
  error: { readonly type: string; readonly message?: string; readonly tipSessionId?: string },
): Result<never, SessionMoved> {
  if (error.type === 'SessionAlreadyEnded')
    return err({ type: 'SessionMoved', tipSessionId: error.tipSessionId ?? sessionId });
  if (error.type === 'HistoryChanged') return err({ type: 'SessionMoved', tipSessionId: sessionId });
  throw new ConversationStorageError(describe(error));
}

async function changeEpoch(
  change: Promise<Result<EpochChange, EpochChangeError>>,
): Promise<Result<{ session: StoredChatSession; epoch: CompactionEpoch }, EpochRefused>> {
  const result = await change;
  if (result.ok) return ok({ session: toStored(result.value.session), epoch: result.value.epoch });
  const error = result.error;
  switch (error.type) {
    case 'NothingToUndo':
    case 'NothingToRedo':
      return err({ type: 'EpochRefused', reason: 'nothing', message: error.message, tipSessionId: null });
    case 'HistoryChanged':
      return err({ type: 'EpochRefused', reason: 'changed', message: error.message, tipSessionId: null });
    case 'SessionAlreadyEnded':
      return err({
        type: 'EpochRefused',
        reason: 'moved',
        message: 'Another tab moved this conversation on; it continues in its newest session.',
        tipSessionId: error.tipSessionId,
      });
    case 'SessionNotFound':
    case 'StorageFull':
      throw new ConversationStorageError(describe(error));
  }
}

function describe(error: { readonly type: string; readonly message?: string }): string {
  if (error.message) return error.message;
  return error.type === 'SessionNotFound'
    ? 'The conversation is no longer stored (deleted in another tab?).'
    : error.type;
}
