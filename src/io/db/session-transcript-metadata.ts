import { isTranscriptFormat } from '../../core/import/formats/transcript-format-registry.ts';
import { isPlainObject } from '../../core/shared/safe-parse-json.ts';
import type { ForeignCompactionPoint, TranscriptMetadata } from '../../core/transcript/transcript.ts';
import type { SessionRow } from './session-row.ts';

/**
 * A stored session's transcript metadata for the workspace; the stored metadata is the import's.
 * Written by this app from a transcript's own metadata, so only the required fields are checked
 * (rows from an older version may lack them); the row's title, model and system prompt win.
 */
export function sessionTranscriptMetadata(session: SessionRow): TranscriptMetadata {
  const stored = session.metadata ?? {};
  const metadata: TranscriptMetadata = {
    ...(stored as Partial<TranscriptMetadata>),
    format: isTranscriptFormat(stored.format) ? stored.format : 'internal',
    compactionPoints: Array.isArray(stored.compactionPoints)
      ? stored.compactionPoints.filter(isForeignCompactionPoint)
      : [],
    sourceSessionId: session.id,
  };
  if (session.title !== null) metadata.title = session.title;
  if (session.model !== null) metadata.model = session.model;
  if (session.systemPrompt !== null) metadata.systemPrompt = session.systemPrompt;
  return metadata;
}

const isForeignCompactionPoint = (value: unknown): value is ForeignCompactionPoint =>
  isPlainObject(value) && typeof value.messageIndex === 'number' && typeof value.kind === 'string';
