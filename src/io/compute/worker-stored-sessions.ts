import type { PresetName } from '../../core/presets/preset-name.ts';
import type { LineageSegmentDescription } from '../../core/sessions/describe-lineage-segment.ts';
import type { Result } from '../../core/shared/result.ts';
import type { SearchHit, SearchOptions } from '../db/search-index.ts';
import type { SessionNotFoundError } from '../db/session-store-error.ts';
import type { StorageFullError } from '../db/storage-full-error.ts';
import type { ComputeClient, DeleteSessionReply, LineageExportRequest } from './compute-client.ts';

/**
 * What reads or rewrites the messages of stored sessions, done where the messages are: in the
 * worker, so a 50,000-message session's rows, postings and export text never reach the page.
 * The page keeps reading session rows itself (small, and its live queries follow them).
 */
export interface StoredSessionMessages {
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  describeLineage(
    sessionId: string,
    preset: PresetName,
  ): Promise<Array<{ sessionId: string; description: LineageSegmentDescription }>>;
  exportLineage(request: LineageExportRequest): Promise<Blob>;
  deleteSession(sessionId: string): Promise<Result<void, StorageFullError | SessionNotFoundError>>;
}

export function workerStoredSessions(compute: ComputeClient): StoredSessionMessages {
  return {
    search: (query, options = {}) => compute.run((api) => api.searchSessions(query, options)),
    describeLineage: (sessionId, preset) => compute.run((api) => api.describeLineage(sessionId, preset)),
    exportLineage: (request) => compute.run((api) => api.exportLineage(request)),
    deleteSession: (sessionId) => compute.run<DeleteSessionReply>((api) => api.deleteSession(sessionId)),
  };
}
