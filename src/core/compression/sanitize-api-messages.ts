/**
 * The safety net before every provider request (Hermes `sanitize_api_messages`,
 * hermes-reference §5.9): whatever produced the list (a resumed session, an import, manual
 * edits), the request must not carry unknown roles, empty `tool_calls`, blank tool names,
 * orphan results, or calls without a result. Unlike the compressor's repair, missing results
 * always get a stub here. Vectors: api_sanitize.json.
 */
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import { API_ORPHAN_RESULT_STUB } from './markers.ts';

export const VALID_API_ROLES: ReadonlySet<string> = new Set([
  'system',
  'user',
  'assistant',
  'tool',
  'function',
  'developer',
]);
/** The name given to a tool call whose name is blank, so the request stays valid. */
export const INVALID_TOOL_CALL_NAME = 'invalid_tool_call';

const callId = (call: unknown): string => {
  const id = call && typeof call === 'object' ? (call as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : '';
};

const callName = (call: unknown): string => {
  const fn = call && typeof call === 'object' ? (call as { function?: unknown }).function : undefined;
  const name = fn && typeof fn === 'object' ? (fn as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
};

/** Drops empty/non-list `tool_calls` and names blank tool names (a copy when anything changes). */
function normaliseToolCalls(message: Message): Message {
  if (!('tool_calls' in message)) return message;
  const toolCalls: unknown = message.tool_calls;
  if (!Array.isArray(toolCalls) || toolCalls.length === 0) {
    const copy = { ...message };
    delete copy.tool_calls;
    return copy;
  }
  if (!toolCalls.some((call) => callName(call).trim() === '' && call && typeof call === 'object'))
    return message;
  return {
    ...message,
    tool_calls: toolCalls.map((call) =>
      callName(call).trim() === '' && call && typeof call === 'object'
        ? { ...call, function: { ...call.function, name: INVALID_TOOL_CALL_NAME } }
        : call,
    ),
  };
}

export function sanitizeApiMessages(messages: readonly Message[], preset: Preset): Message[] {
  const filtered: Message[] = [];
  for (const message of messages) {
    if (typeof message.role !== 'string' || !VALID_API_ROLES.has(message.role)) continue;
    filtered.push(message.role === 'assistant' ? normaliseToolCalls(message) : message);
  }
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of filtered) {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) if (callId(call)) calls.add(callId(call));
    } else if (message.role === 'tool' && typeof message.tool_call_id === 'string' && message.tool_call_id) {
      results.add(message.tool_call_id);
    }
  }
  const withoutOrphans = filtered.filter(
    (message) =>
      !(
        message.role === 'tool' &&
        typeof message.tool_call_id === 'string' &&
        message.tool_call_id !== '' &&
        !calls.has(message.tool_call_id)
      ),
  );
  const missing = new Set([...calls].filter((id) => !results.has(id)));
  if (missing.size === 0) return withoutOrphans;
  const patched: Message[] = [];
  for (const message of withoutOrphans) {
    patched.push(message);
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) {
      const id = callId(call);
      if (!missing.has(id)) continue;
      patched.push(
        preset.gates.apiStubNamesTool
          ? { role: 'tool', name: callName(call), content: API_ORPHAN_RESULT_STUB, tool_call_id: id }
          : { role: 'tool', content: API_ORPHAN_RESULT_STUB, tool_call_id: id },
      );
    }
  }
  return patched;
}
