import { isPlainObject } from '../shared/safe-parse-json.ts';
import { detection, type FormatDetection } from './format-detection.ts';

const CODEX_ENVELOPE_TYPES = new Set([
  'session_meta',
  'turn_context',
  'response_item',
  'event_msg',
  'compacted',
]);

/** Responses-API items, which old Codex rollouts wrote without the `{type, payload}` envelope. */
export const BARE_RESPONSE_ITEM_TYPES = new Set([
  'message',
  'function_call',
  'function_call_output',
  'function_result',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'reasoning',
  'web_search_call',
]);

/** Claude Code bookkeeping records: never messages, but unmistakably Claude Code. */
export const CLAUDE_CODE_BOOKKEEPING_TYPES = new Set([
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'permission-mode',
  'custom-title',
  'ai-title',
  'agent-name',
  'last-prompt',
  'worktree-state',
]);

const HERMES_SESSION_KEYS = [
  'source',
  'started_at',
  'parent_session_id',
  'end_reason',
  'message_count',
  'ended_at',
];

/** Which JSONL format one line's object belongs to, if its shape says so. */
export function classifyJsonlRecord(record: Record<string, unknown>): FormatDetection | null {
  const type = record.type;
  if (Array.isArray(record.conversations)) {
    return detection('sharegpt', 0.95, 'lines hold a "conversations" array of {from, value} turns');
  }
  if (Array.isArray(record.messages)) {
    if (HERMES_SESSION_KEYS.some((key) => key in record)) {
      return detection('hermes-session-jsonl', 0.95, 'lines are session objects with nested "messages"');
    }
    return detection('hermes-session-jsonl', 0.5, 'lines hold a "messages" array');
  }
  if (typeof type === 'string' && CODEX_ENVELOPE_TYPES.has(type) && isPlainObject(record.payload)) {
    return detection('codex-rollout', 0.95, `lines are {type, payload} records ("${type}")`);
  }
  if ((type === 'user' || type === 'assistant') && isPlainObject(record.message)) {
    const threaded = 'uuid' in record || 'parentUuid' in record || 'sessionId' in record;
    return detection(
      'claude-code',
      threaded ? 0.95 : 0.8,
      `lines are "${type}" records with a nested message`,
    );
  }
  if (type === 'summary' && 'leafUuid' in record) {
    return detection('claude-code', 0.9, 'lines include Claude Code "summary" title records');
  }
  if (type === 'system' && ('uuid' in record || 'subtype' in record)) {
    return detection('claude-code', 0.9, 'lines include Claude Code "system" records');
  }
  if (typeof type === 'string' && CLAUDE_CODE_BOOKKEEPING_TYPES.has(type)) {
    return detection('claude-code', 0.9, `lines include Claude Code "${type}" records`);
  }
  if (typeof type === 'string' && BARE_RESPONSE_ITEM_TYPES.has(type)) {
    return detection(
      'codex-rollout',
      0.7,
      `lines are bare Responses items ("${type}"), as in old Codex rollouts`,
    );
  }
  if (typeof record.role === 'string' && ('content' in record || 'message' in record)) {
    return detection('codex-rollout', 0.4, 'lines are single chat messages');
  }
  if (typeof record.id === 'string' && typeof record.timestamp === 'string' && !('type' in record)) {
    return detection('codex-rollout', 0.4, 'the first line is an {id, timestamp} rollout header');
  }
  return null;
}
