import type { Message } from '../../../transcript/message.ts';
import {
  COMPACTION_POINT_KINDS,
  type ForeignCompactionPoint,
  type SessionLineage,
  type TranscriptMetadata,
  type TranscriptSegment,
} from '../../../transcript/transcript.ts';
import { isTranscriptFormat } from '../transcript-format-registry.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { keepToolSchemas } from '../../keep-tool-schemas.ts';
import { isWithinDepth } from '../../is-within-depth.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import {
  INTERNAL_TRANSCRIPT_FORMAT as INTERNAL_FORMAT_TAG,
  INTERNAL_TRANSCRIPT_VERSION as INTERNAL_FORMAT_VERSION,
} from '../../../export/export-internal-json.ts';
import type { ImportContext } from '../../import-context.ts';
import { childPath } from '../../import-warning.ts';
import type { DocumentProblem } from '../../json-document-converter.ts';
import { normalizeChatMessage } from '../../normalize-chat-message.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

const STRING_METADATA_KEYS = [
  'sourceSessionId',
  'model',
  'startedAt',
  'endedAt',
  'systemPrompt',
  'title',
  'cwd',
] as const;

/**
 * Reads Context Lab's own export (`exportInternalJson`): messages exactly as stored, metadata
 * validated field by field. A message whose tool calls are malformed is repaired, not dropped.
 */
export function internalDocumentToDraft(
  value: unknown,
  context: ImportContext,
): Result<TranscriptDraft, DocumentProblem> {
  if (!isPlainObject(value) || value.format !== INTERNAL_FORMAT_TAG) {
    return err({ path: '$.format', problem: `is not "${INTERNAL_FORMAT_TAG}"` });
  }
  if (value.version !== INTERNAL_FORMAT_VERSION) {
    return err({
      path: '$.version',
      problem: `is ${JSON.stringify(value.version)}, not ${INTERNAL_FORMAT_VERSION}`,
    });
  }
  if (!Array.isArray(value.messages)) return err({ path: '$.messages', problem: 'is missing' });
  const draft = createTranscriptDraft('internal');
  draft.metadata = readMetadata(value.metadata, context);
  value.messages.forEach((raw: unknown, index) => {
    const at = { path: childPath('$.messages', index) };
    if (isWellFormedMessage(raw)) {
      pushDraftMessage(draft, raw, at);
      return;
    }
    const repaired = normalizeChatMessage(raw, at, context, {
      extraKeys: 'all',
      generatedIdPrefix: `call_m${index}`,
    });
    if (repaired) {
      context.repaired(at, 'is not a well-formed message; repaired');
      pushDraftMessage(draft, repaired, at);
    }
  });
  return ok(draft);
}

function isWellFormedMessage(value: unknown): value is Message {
  if (!isPlainObject(value) || typeof value.role !== 'string' || !isWithinDepth(value)) return false;
  const content = value.content;
  const isContent =
    content === undefined ||
    content === null ||
    typeof content === 'string' ||
    Array.isArray(content) ||
    isPlainObject(content);
  if (!isContent) return false;
  if (value.tool_calls === undefined) return true;
  return (
    Array.isArray(value.tool_calls) &&
    value.tool_calls.every(
      (call: unknown) =>
        isPlainObject(call) &&
        typeof call.id === 'string' &&
        isPlainObject(call.function) &&
        typeof call.function.name === 'string' &&
        typeof call.function.arguments === 'string',
    )
  );
}

function readMetadata(value: unknown, context: ImportContext): TranscriptMetadata {
  const source = isPlainObject(value) ? value : {};
  const metadata: TranscriptMetadata = {
    format: isTranscriptFormat(source.format) ? source.format : 'internal',
    compactionPoints: [],
  };
  for (const key of STRING_METADATA_KEYS) {
    if (typeof source[key] === 'string') metadata[key] = source[key];
  }
  if (Array.isArray(source.tools))
    metadata.tools = keepToolSchemas(source.tools, { path: '$.metadata.tools' }, context);
  readList(
    source.compactionPoints,
    '$.metadata.compactionPoints',
    context,
    readPoint,
    metadata.compactionPoints,
  );
  if (Array.isArray(source.lineage))
    metadata.lineage = readList(source.lineage, '$.metadata.lineage', context, readLineage, []);
  if (Array.isArray(source.segments))
    metadata.segments = readList(source.segments, '$.metadata.segments', context, readSegment, []);
  return metadata;
}

function readList<T>(
  value: unknown,
  path: string,
  context: ImportContext,
  read: (item: Record<string, unknown>) => T | undefined,
  into: T[],
): T[] {
  if (!Array.isArray(value)) return into;
  value.forEach((item: unknown, index) => {
    const parsed = isPlainObject(item) ? read(item) : undefined;
    if (parsed === undefined) context.skipPart({ path: childPath(path, index) }, 'is not valid; dropped');
    else into.push(parsed);
  });
  return into;
}

function readPoint(item: Record<string, unknown>): ForeignCompactionPoint | undefined {
  const kind = COMPACTION_POINT_KINDS.find((candidate) => candidate === item.kind);
  if (!kind || !Number.isInteger(item.messageIndex)) return undefined;
  const point: ForeignCompactionPoint = { messageIndex: item.messageIndex as number, kind };
  for (const key of ['line', 'preTokens', 'postTokens', 'replacedItems'] as const) {
    if (typeof item[key] === 'number') point[key] = item[key];
  }
  if (typeof item.trigger === 'string') point.trigger = item.trigger;
  if (typeof item.summary === 'string') point.summary = item.summary;
  return point;
}

function readLineage(item: Record<string, unknown>): SessionLineage | undefined {
  if (typeof item.sessionId !== 'string') return undefined;
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return {
    sessionId: item.sessionId,
    parentSessionId: text(item.parentSessionId),
    endReason: text(item.endReason),
    title: text(item.title),
  };
}

function readSegment(item: Record<string, unknown>): TranscriptSegment | undefined {
  if (!Number.isInteger(item.messageIndex) || typeof item.label !== 'string') return undefined;
  const segment: TranscriptSegment = { messageIndex: item.messageIndex as number, label: item.label };
  if (typeof item.line === 'number') segment.line = item.line;
  if (typeof item.sessionId === 'string') segment.sessionId = item.sessionId;
  return segment;
}
