import type { TranscriptFormat } from '../transcript/transcript.ts';
import { assertNever } from '../shared/assert-never.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { Result } from '../shared/result.ts';
import { finishImport } from './finish-import.ts';
import type { ImportContext } from './import-context.ts';
import type { ImportError } from './import-error.ts';
import type { ImportResult } from './import-result.ts';
import { importJsonDocumentValue } from './import-json-document-text.ts';
import { childPath, type SourceLocation } from './import-warning.ts';
import type { JsonDocumentConverter } from './json-document-converter.ts';
import type { JsonlRecordParserFactory } from './jsonl-record-parser.ts';
import { anthropicMessagesDocumentToDraft } from './parse-anthropic-messages-transcript.ts';
import { createClaudeCodeRecordParser } from './parse-claude-code-transcript.ts';
import { createCodexRolloutRecordParser } from './parse-codex-rollout-transcript.ts';
import { createHermesSessionRecordParser } from './parse-hermes-session-transcript.ts';
import { hermesSnapshotDocumentToDraft } from './parse-hermes-snapshot-transcript.ts';
import { internalDocumentToDraft } from './parse-internal-transcript.ts';
import { openAiChatDocumentToDraft } from './parse-openai-chat-transcript.ts';
import { createShareGptRecordParser } from './parse-sharegpt-transcript.ts';

/** How each format is read: line by line (JSONL) or as one parsed document. */
export type TranscriptParser =
  | { layout: 'jsonl'; createParser: JsonlRecordParserFactory }
  | { layout: 'document'; convert: JsonDocumentConverter };

export function transcriptParserFor(format: TranscriptFormat): TranscriptParser {
  switch (format) {
    case 'claude-code':
      return { layout: 'jsonl', createParser: createClaudeCodeRecordParser };
    case 'codex-rollout':
      return { layout: 'jsonl', createParser: createCodexRolloutRecordParser };
    case 'sharegpt':
      return { layout: 'jsonl', createParser: createShareGptRecordParser };
    case 'hermes-session-jsonl':
      return { layout: 'jsonl', createParser: createHermesSessionRecordParser };
    case 'openai-chat':
      return { layout: 'document', convert: openAiChatDocumentToDraft };
    case 'anthropic-messages':
      return { layout: 'document', convert: anthropicMessagesDocumentToDraft };
    case 'hermes-snapshot':
      return { layout: 'document', convert: hermesSnapshotDocumentToDraft };
    case 'internal':
      return { layout: 'document', convert: internalDocumentToDraft };
    default:
      return assertNever(format);
  }
}

/**
 * Imports a parsed JSON document in the given format. A JSONL format given a document reads
 * its records from it: each element of an array, or the object itself.
 */
export function importParsedDocument(
  value: unknown,
  format: TranscriptFormat,
  context: ImportContext,
  bytes: number,
  wholeDocumentAt: SourceLocation,
): Result<ImportResult, ImportError> {
  const parser = transcriptParserFor(format);
  if (parser.layout === 'document')
    return importJsonDocumentValue(value, format, parser.convert, context, bytes);
  const recordParser = parser.createParser(context);
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => {
      const at = { path: childPath('$', index) };
      if (isPlainObject(item)) recordParser.acceptRecord(item, at);
      else context.skipLine(at, 'is not a JSON object');
    });
  } else if (isPlainObject(value)) recordParser.acceptRecord(value, wholeDocumentAt);
  else context.skipLine(wholeDocumentAt, 'is not a JSON object or array');
  return finishImport(recordParser.finish(), context, format, bytes);
}
