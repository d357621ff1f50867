import { workerCallback, type ComputeClient, type StoreDocumentReply } from '../io/compute/compute-client.ts';
import type { StorageEstimateBytes } from '../io/db/browser-storage.ts';
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

/**
 * The lab's view of the session store: documents the worker holds are stored by the worker
 * (in batches, from its own copy); continuations, small, by the page's repository. Failures
 * become errors with a readable message.
 */
export function sessionStoreFromRepository(
  repository: SessionRepository,
  compute: ComputeClient,
  /**
   * The page's storage estimate, which the worker checks a large store against: the same figures
   * the storage panel shows (the worker's own `navigator.storage` would answer the same origin).
   */
  storageEstimate?: () => Promise<StorageEstimateBytes | null>,
): LabSessionStore {
  const estimate = storageEstimate ? workerCallback(storageEstimate) : undefined;
  return {
    async storeDocument({ documentId, revision, metadata, source, cancelToken, onProgress, pinned }) {
      const progress = onProgress ? workerCallback(onProgress) : undefined;
      const stored = await compute.run<StoreDocumentReply>((api) =>
        api.storeDocument(
          {
            documentId,
            revision,
            session: {
              title: metadata.title ?? null,
              source,
              model: metadata.model ?? null,
              systemPrompt: metadata.systemPrompt ?? null,
              metadata: { ...metadata },
            },
            ...(cancelToken ? { cancelToken } : {}),
            ...(pinned && pinned.length > 0 ? { pinned: [...pinned] } : {}),
          },
          progress,
          estimate,
        ),
      );
      if (!stored.ok) throw new Error(describeStoreError(stored.error));
      return stored.value;
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
    async addProbeUsage(sessionId, usage, costUsd, model) {
      const added = await repository.addUsage(sessionId, usage, costUsd, model, { probe: true });
      if (!added.ok) throw new Error(describeStoreError(added.error));
    },
  };
}
