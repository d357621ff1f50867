import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import type { FormatEvidence, JsonlFormatSpec } from '../transcript-format-spec.ts';
import { createHermesSessionRecordParser } from './parse-hermes-session-transcript.ts';

const HERMES_SESSION_KEYS = [
  'source',
  'started_at',
  'parent_session_id',
  'end_reason',
  'message_count',
  'ended_at',
];

export const hermesSessionJsonlFormat: JsonlFormatSpec<'hermes-session-jsonl'> = {
  id: 'hermes-session-jsonl',
  label: 'Hermes session JSONL',
  expectation: 'one Hermes session object per line with a "messages" array',
  fileExtensions: ['.jsonl'],
  layout: 'jsonl',
  detect: {
    record: detectHermesSessionRecord,
    document: (value) =>
      isPlainObject(value) &&
      Array.isArray(value.messages) &&
      typeof value.id === 'string' &&
      ('source' in value || 'started_at' in value || 'parent_session_id' in value)
        ? { confidence: 0.9, reason: 'a Hermes session row with nested "messages"' }
        : null,
  },
  parse: createHermesSessionRecordParser,
};

function detectHermesSessionRecord(record: Record<string, unknown>): FormatEvidence | null {
  if (!Array.isArray(record.messages)) return null;
  if (HERMES_SESSION_KEYS.some((key) => key in record)) {
    return { confidence: 0.95, reason: 'lines are session objects with nested "messages"' };
  }
  return { confidence: 0.5, reason: 'lines hold a "messages" array' };
}
