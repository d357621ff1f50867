import type { Message, ToolCall } from '../transcript/message.ts';
import type { ProviderWarning } from './provider-warning.ts';

/** The prefix of ids given to calls a provider sent without one (`call_0`, `call_1`, …). */
const GENERATED_ID_PREFIX = 'call';

/**
 * A provider's assistant message with every tool call id unique: unique within the reply and
 * against every id the conversation already used (`takenIds`, the request's history). Some
 * servers (local OpenAI-compatible ones especially) answer with empty ids, or with `call_0` in
 * every turn; results are matched to calls by id everywhere downstream (pairing, persisted
 * outputs, the chat view), so a repeated id would bind one call's result to another.
 *
 * An empty id becomes `call_<index>`; a repeated one is renamed `id~2`, `id~3`, … (the
 * importer's convention, `pairToolResults`). Each change is reported as a warning. The message
 * is returned as is when nothing changes.
 *
 * @example
 * makeToolCallIdsUnique(reply, new Set(['call_0'])) // a reply's call "call_0" becomes "call_0~2"
 */
export function makeToolCallIdsUnique(
  message: Message,
  takenIds: ReadonlySet<string>,
): { message: Message; warnings: ProviderWarning[] } {
  const calls = message.tool_calls;
  if (!Array.isArray(calls) || calls.length === 0) return { message, warnings: [] };
  const used = new Set(takenIds);
  const warnings: ProviderWarning[] = [];
  let changed = false;
  const uniqueCalls = calls.map((call, index): ToolCall => {
    const originalId = typeof call.id === 'string' ? call.id : '';
    const baseId = originalId === '' ? `${GENERATED_ID_PREFIX}_${index}` : originalId;
    let id = baseId;
    for (let copy = 2; used.has(id); copy += 1) id = `${baseId}~${copy}`;
    used.add(id);
    if (id === originalId) return call;
    changed = true;
    warnings.push({
      type: 'other',
      feature: 'tool_call.id',
      details:
        originalId === ''
          ? `tool call ${index + 1} (${call.function.name}) came without an id; named "${id}"`
          : `tool call ${index + 1} (${call.function.name}) reuses the id "${originalId}"; renamed to "${id}"`,
    });
    return { ...call, id };
  });
  return changed ? { message: { ...message, tool_calls: uniqueCalls }, warnings } : { message, warnings };
}

/** Every tool call id the messages use: the ids a new reply must not repeat. */
export function collectToolCallIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (!Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls)
      if (typeof call.id === 'string' && call.id !== '') ids.add(call.id);
  }
  return ids;
}
