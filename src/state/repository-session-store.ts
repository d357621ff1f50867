import type { SessionRepository } from '../io/db/session-repository.ts';
import type { LabSessionStore } from './lab-session-store.ts';

/** Why a store failed, in one line: the storage errors are plain data with a `type`. */
function describeStoreError(error: { type: string; message?: string; tipSessionId?: string }): string {
  if (error.message) return error.message;
  if (error.type === 'SessionAlreadyEnded') {
    return `the session was already continued elsewhere (its tip is ${error.tipSessionId ?? 'unknown'})`;
  }
  if (error.type === 'SessionNotFound') return 'the session no longer exists';
  return error.type;
}

/** The lab's view of the IndexedDB session repository: failures become errors with a readable message. */
export function sessionStoreFromRepository(repository: SessionRepository): LabSessionStore {
  return {
    async storeTranscript(transcript, source) {
      const metadata = transcript.metadata;
      const stored = await repository.createSession(
        {
          title: metadata.title ?? null,
          source,
          model: metadata.model ?? null,
          systemPrompt: metadata.systemPrompt ?? null,
          metadata: { ...metadata },
        },
        transcript.messages,
      );
      if (!stored.ok) throw new Error(describeStoreError(stored.error));
      return { id: stored.value.id, title: stored.value.title };
    },
    async commitCompaction(sessionId, compressed, { mode, ...details }) {
      if (mode === 'in-place') {
        const compacted = await repository.compactInPlace(sessionId, compressed, details);
        if (!compacted.ok) throw new Error(describeStoreError(compacted.error));
        return { id: compacted.value.session.id, title: compacted.value.session.title };
      }
      const rotated = await repository.rotateForCompression(sessionId, compressed, details);
      if (!rotated.ok) throw new Error(describeStoreError(rotated.error));
      return { id: rotated.value.id, title: rotated.value.title };
    },
  };
}
