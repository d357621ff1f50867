import type { StoredSessionMessages } from '#io/compute/worker-stored-sessions.ts';
import type { SessionRepository } from '#io/db/session-repository.ts';
import { describeLineage, exportLineageBlob } from '#worker/stored-sessions.ts';

/**
 * What the worker answers about stored sessions' messages, computed in the test's own realm over
 * a repository: the same functions the worker's API calls, without the worker.
 */
export function inProcessStoredSessions(repository: SessionRepository): StoredSessionMessages {
  return {
    search: (query, options) => repository.search(query, options),
    describeLineage: (sessionId, preset) => describeLineage(repository, sessionId, preset),
    exportLineage: (request) => exportLineageBlob(repository, request),
    deleteSession: (sessionId) => repository.deleteSession(sessionId),
  };
}
