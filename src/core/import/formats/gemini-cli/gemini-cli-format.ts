import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import type { FormatEvidence, JsonlFormatSpec } from '../transcript-format-spec.ts';
import { createGeminiCliRecordParser } from './parse-gemini-cli-transcript.ts';

const OTHER_MESSAGE_TYPES = new Set(['user', 'info', 'error', 'warning']);

export const geminiCliFormat: JsonlFormatSpec<'gemini-cli'> = {
  id: 'gemini-cli',
  label: 'Gemini CLI session',
  expectation:
    'a Gemini CLI session: {"sessionId","projectHash","messages":[…]} JSON, or JSONL of that header, message records ({id, type:"user"|"gemini", content}) and $set/$rewindTo updates',
  fileExtensions: ['.json', '.jsonl'],
  layout: 'jsonl',
  detect: {
    record: detectGeminiRecord,
    document: (value) =>
      isPlainObject(value) &&
      typeof value.sessionId === 'string' &&
      typeof value.projectHash === 'string' &&
      Array.isArray(value.messages)
        ? { confidence: 0.97, reason: 'a Gemini CLI session with "sessionId", "projectHash" and "messages"' }
        : null,
  },
  parse: createGeminiCliRecordParser,
};

function detectGeminiRecord(record: Record<string, unknown>): FormatEvidence | null {
  if (typeof record.sessionId === 'string' && typeof record.projectHash === 'string') {
    return { confidence: 0.95, reason: 'a Gemini CLI session header {sessionId, projectHash}' };
  }
  if (typeof record.id === 'string' && record.type === 'gemini' && 'content' in record) {
    return { confidence: 0.95, reason: 'lines are Gemini CLI "gemini" message records' };
  }
  if (typeof record.$rewindTo === 'string') {
    return { confidence: 0.9, reason: 'lines include Gemini CLI "$rewindTo" records' };
  }
  if (
    typeof record.id === 'string' &&
    typeof record.type === 'string' &&
    OTHER_MESSAGE_TYPES.has(record.type) &&
    typeof record.timestamp === 'string' &&
    'content' in record &&
    !('message' in record)
  ) {
    return { confidence: 0.6, reason: 'lines are {id, timestamp, type, content} message records' };
  }
  if (isPlainObject(record.$set)) return { confidence: 0.6, reason: 'lines include "$set" updates' };
  return null;
}
