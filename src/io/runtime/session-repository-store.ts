/**
 * The IndexedDB session repository as the runtime's `ConversationStore`: rows mapped to the
 * few fields the loop reads, the outcomes the loop handles (a session another tab rotated, a
 * compaction in progress elsewhere) as values, and a full disk as an error with the
 * repository's own plain message.
 */
import { ok, err } from '../../core/shared/result.ts';
import { withCompactionLock, type LockManagerLike } from '../db/compaction-lock.ts';
import type { SessionRepository } from '../db/session-repository.ts';
import type { SessionRow } from '../db/session-row.ts';
import type { ConversationStore, StoredChatSession, ToolResultStore } from './conversation-store.ts';

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
    async appendMessages(sessionId, messages) {
      const appended = await repository.appendMessages(sessionId, messages);
      if (appended.ok) return ok(undefined);
      if (appended.error.type === 'SessionAlreadyEnded')
        return err({ type: 'SessionMoved', tipSessionId: appended.error.tipSessionId });
      throw new ConversationStorageError(describe(appended.error));
    },
    loadMessages: (sessionId) => repository.loadMessages(sessionId),
    async rotateForCompression(oldId, compressed, rotation) {
      const rotated = await repository.rotateForCompression(oldId, compressed, {
        compressorState: rotation.compressorState,
        systemPrompt: rotation.systemPrompt,
      });
      if (rotated.ok) return ok(toStored(rotated.value));
      if (rotated.error.type === 'SessionAlreadyEnded')
        return err({ type: 'SessionMoved', tipSessionId: rotated.error.tipSessionId });
      throw new ConversationStorageError(describe(rotated.error));
    },
    getCompressionTip: (sessionId) => repository.getCompressionTip(sessionId),
    resolveResumeSessionId: (sessionId) => repository.resolveResumeSessionId(sessionId),
    async addUsage(sessionId, usage, costUsd, model, usageOptions) {
      const added = await repository.addUsage(sessionId, usage, costUsd, model, {
        compaction: usageOptions?.compaction ?? false,
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
  };
}

function describe(error: { readonly type: string; readonly message?: string }): string {
  if (error.message) return error.message;
  return error.type === 'SessionNotFound'
    ? 'The conversation is no longer stored (deleted in another tab?).'
    : error.type;
}
