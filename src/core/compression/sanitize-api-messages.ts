/**
 * The safety net before every provider request (Hermes `sanitize_api_messages`,
 * hermes-reference §5.9): whatever produced the list (a resumed session, an import, manual
 * edits), the request must not carry unknown roles, orphan results or calls without a result.
 * Unlike the compressor's repair, missing results always get a stub here. 2026-07 also drops an
 * empty `tool_calls` list and renames a blank tool name (`preset.gates.apiRepairsToolCalls`);
 * 2026-04 sent both as they were. Vectors: api_sanitize.json.
 */
import type { Preset } from '../presets/preset.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { Message, ToolCall, ToolCallFunction } from '../transcript/message.ts';
import { API_ORPHAN_RESULT_STUB } from './markers.ts';

export const VALID_API_ROLES: ReadonlySet<string> = new Set([
  'system',
  'user',
  'assistant',
  'tool',
  'function',
  'developer',
]);
/** The name given to a tool call whose name is blank, so the call and its result stay paired. */
export const INVALID_TOOL_CALL_NAME = 'invalid_tool_call';
/** The function a call without one gets along with the sentinel name. */
const EMPTY_ARGUMENTS = '{}';

/**
 * A tool-call or result id as a Python set member: only truthy ids count (`if cid:`), and a
 * string and a number with the same digits are different members, as in Python.
 */
function idKey(id: unknown): string | null {
  if (typeof id === 'string') return id === '' ? null : `s:${id}`;
  if (typeof id === 'number') return id === 0 || Number.isNaN(id) ? null : `n:${id}`;
  // Python's True is the member 1.
  if (id === true) return 'n:1';
  return null;
}

/** `tc.get("id", "") or ""` for a dict call; anything else has no id. */
const callIdKey = (call: unknown): string | null => (isPlainObject(call) ? idKey(call.id) : null);

/** `function.name` of a dict call when it is a non-blank string, else null. */
function usableName(call: unknown): string | null {
  const fn = isPlainObject(call) ? call.function : undefined;
  const name = isPlainObject(fn) ? fn.name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name : null;
}

/** The stub's `name`: the call's function name as it now stands. */
function callName(call: unknown): unknown {
  const fn = isPlainObject(call) ? call.function : undefined;
  return isPlainObject(fn) && 'name' in fn ? fn.name : '';
}

/**
 * 2026-07: an assistant's `tool_calls` that is not a non-empty list is dropped (strict providers
 * reject `[]`), and a dict call whose name is missing or blank is renamed to the sentinel: its
 * function keeps its arguments, a call with no function object gets `{name, arguments: "{}"}`.
 * Returns the message itself when nothing changes.
 */
function repairToolCalls(message: Message): Message {
  if (!('tool_calls' in message)) return message;
  const toolCalls: unknown = message.tool_calls;
  if (!Array.isArray(toolCalls) || toolCalls.length === 0) {
    const copy = { ...message };
    delete copy.tool_calls;
    return copy;
  }
  const needsName = (call: unknown): boolean => isPlainObject(call) && usableName(call) === null;
  if (!toolCalls.some(needsName)) return message;
  return {
    ...message,
    tool_calls: toolCalls.map((call: ToolCall) => {
      if (!needsName(call)) return call;
      const fn: unknown = call.function;
      return isPlainObject(fn)
        ? { ...call, function: { ...fn, name: INVALID_TOOL_CALL_NAME } as ToolCallFunction }
        : { ...call, function: { name: INVALID_TOOL_CALL_NAME, arguments: EMPTY_ARGUMENTS } };
    }),
  };
}

const toolCallsOf = (message: Message): readonly unknown[] =>
  Array.isArray(message.tool_calls) ? message.tool_calls : [];

export function sanitizeApiMessages(messages: readonly Message[], preset: Preset): Message[] {
  const repairs = preset.gates.apiRepairsToolCalls;
  const filtered: Message[] = [];
  for (const message of messages) {
    if (typeof message.role !== 'string' || !VALID_API_ROLES.has(message.role)) continue;
    filtered.push(repairs && message.role === 'assistant' ? repairToolCalls(message) : message);
  }
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of filtered) {
    if (message.role === 'assistant') {
      for (const call of toolCallsOf(message)) {
        const key = callIdKey(call);
        if (key !== null) calls.add(key);
      }
    } else if (message.role === 'tool') {
      const key = idKey(message.tool_call_id);
      if (key !== null) results.add(key);
    }
  }
  const withoutOrphans = filtered.filter((message) => {
    if (message.role !== 'tool') return true;
    const key = idKey(message.tool_call_id);
    return key === null || calls.has(key);
  });
  const missing = new Set([...calls].filter((key) => !results.has(key)));
  if (missing.size === 0) return withoutOrphans;
  const patched: Message[] = [];
  for (const message of withoutOrphans) {
    patched.push(message);
    if (message.role !== 'assistant') continue;
    for (const call of toolCallsOf(message)) {
      const key = callIdKey(call);
      if (key === null || !missing.has(key)) continue;
      // Ids and names go out as the call carried them (a number stays a number).
      const id = (call as { id: unknown }).id;
      const stub = preset.gates.apiStubNamesTool
        ? { role: 'tool', name: callName(call), content: API_ORPHAN_RESULT_STUB, tool_call_id: id }
        : { role: 'tool', content: API_ORPHAN_RESULT_STUB, tool_call_id: id };
      patched.push(stub as Message);
    }
  }
  return patched;
}
