import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { RESPONSES_ITEM_TYPES } from '../../responses-item-types.ts';
import type { FormatEvidence, JsonlFormatSpec } from '../transcript-format-spec.ts';
import { createCodexRolloutRecordParser } from './parse-codex-rollout-transcript.ts';

const CODEX_ENVELOPE_TYPES = new Set([
  'session_meta',
  'turn_context',
  'response_item',
  'event_msg',
  'compacted',
]);

export const codexRolloutFormat: JsonlFormatSpec<'codex-rollout'> = {
  id: 'codex-rollout',
  label: 'Codex rollout JSONL',
  expectation: 'one {"timestamp","type","payload"} object per line',
  fileExtensions: ['.jsonl'],
  layout: 'jsonl',
  detect: { record: detectCodexRecord },
  parse: createCodexRolloutRecordParser,
};

function detectCodexRecord(record: Record<string, unknown>): FormatEvidence | null {
  const type = record.type;
  if (typeof type === 'string' && CODEX_ENVELOPE_TYPES.has(type) && isPlainObject(record.payload)) {
    return { confidence: 0.95, reason: `lines are {type, payload} records ("${type}")` };
  }
  if (typeof type === 'string' && RESPONSES_ITEM_TYPES.has(type)) {
    return {
      confidence: 0.7,
      reason: `lines are bare Responses items ("${type}"), as in old Codex rollouts`,
    };
  }
  if (typeof record.role === 'string' && ('content' in record || 'message' in record)) {
    return { confidence: 0.4, reason: 'lines are single chat messages' };
  }
  if (typeof record.id === 'string' && typeof record.timestamp === 'string' && !('type' in record)) {
    return { confidence: 0.4, reason: 'the first line is an {id, timestamp} rollout header' };
  }
  return null;
}
