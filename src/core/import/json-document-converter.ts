import type { Result } from '../shared/result.ts';
import type { ImportContext } from './import-context.ts';
import type { TranscriptDraft } from './transcript-draft.ts';

/** Why a parsed document is not this format at all (not a recoverable warning). */
export interface DocumentProblem {
  path?: string;
  problem: string;
}

/** The per-format half of importing a whole JSON document. */
export type JsonDocumentConverter = (
  value: unknown,
  context: ImportContext,
) => Result<TranscriptDraft, DocumentProblem>;
