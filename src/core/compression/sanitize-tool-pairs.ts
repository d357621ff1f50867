/**
 * Tool-pair repair after assembly (Hermes `_sanitize_tool_pairs`, hermes-reference §5.9).
 * Summarising a middle can separate a call from its result; providers reject both an orphan
 * result and a call without a result. Results without a call are dropped in both generations;
 * calls without a result get a stub result (2026-04) or are stripped from the assistant
 * (2026-07, matching ids by `call_id || id`). Vectors: sanitize_tool_pairs.json.
 */
import type { Preset } from '../presets/preset.ts';
import type { Message, ToolCall } from '../transcript/message.ts';
import { LEGACY_ORPHAN_RESULT_STUB, ORPHAN_CALL_CONTENT } from './markers.ts';
import { pythonStrip } from './python-text.ts';

/** What the repair changed, for the UI to explain. */
export interface ToolPairRepairs {
  /** `tool_call_id`s of results dropped because their call is gone. */
  readonly removedResults: readonly string[];
  /** Call ids stripped from assistant messages because their result is gone (2026-07). */
  readonly strippedCalls: readonly string[];
  /** Call ids that received a stub result (2026-04). */
  readonly stubbedCalls: readonly string[];
}

export interface SanitizedToolPairs {
  readonly messages: Message[];
  readonly repairs: ToolPairRepairs;
}

const truthyString = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The id a result must answer: `call_id` first when stripping (Responses API), `id` when stubbing. */
export function toolCallMatchId(call: unknown, preset: Preset): string {
  if (!call || typeof call !== 'object') return '';
  const record = call as { id?: unknown; call_id?: unknown };
  if (preset.assembly.orphanCalls === 'stub') return truthyString(record.id);
  return truthyString(record.call_id) || truthyString(record.id);
}

function collectIds(
  messages: readonly Message[],
  preset: Preset,
): { calls: Set<string>; results: Set<string> } {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        const id = toolCallMatchId(call, preset);
        if (id) calls.add(id);
      }
    } else if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (typeof id === 'string' && id) results.add(id);
    }
  }
  return { calls, results };
}

const isEmptyContent = (content: unknown): boolean =>
  !content ||
  (Array.isArray(content) && content.length === 0) ||
  (typeof content === 'string' && pythonStrip(content) === '');

/** Repairs orphaned pairs; input messages are never mutated (changed ones are copied). */
export function sanitizeToolPairs(messages: readonly Message[], preset: Preset): SanitizedToolPairs {
  const { calls, results } = collectIds(messages, preset);
  const orphanResults = new Set([...results].filter((id) => !calls.has(id)));
  const missingResults = new Set([...calls].filter((id) => !results.has(id)));
  if (orphanResults.size === 0 && missingResults.size === 0) {
    return { messages: [...messages], repairs: { removedResults: [], strippedCalls: [], stubbedCalls: [] } };
  }
  const kept = messages.filter(
    (message) =>
      !(
        message.role === 'tool' &&
        typeof message.tool_call_id === 'string' &&
        orphanResults.has(message.tool_call_id)
      ),
  );
  const repaired: Message[] = [];
  const strippedCalls: string[] = [];
  const stubbedCalls: string[] = [];
  for (const message of kept) {
    const toolCalls =
      message.role === 'assistant' && Array.isArray(message.tool_calls) ? message.tool_calls : null;
    if (!toolCalls || missingResults.size === 0) {
      repaired.push(message);
      continue;
    }
    if (preset.assembly.orphanCalls === 'stub') {
      repaired.push(message);
      for (const call of toolCalls) {
        const id = toolCallMatchId(call, preset);
        if (!missingResults.has(id)) continue;
        repaired.push({ role: 'tool', content: LEGACY_ORPHAN_RESULT_STUB, tool_call_id: id });
        stubbedCalls.push(id);
      }
      continue;
    }
    const survivors: ToolCall[] = toolCalls.filter(
      (call) => !missingResults.has(toolCallMatchId(call, preset)),
    );
    if (survivors.length === toolCalls.length) {
      repaired.push(message);
      continue;
    }
    for (const call of toolCalls) {
      const id = toolCallMatchId(call, preset);
      if (missingResults.has(id)) strippedCalls.push(id);
    }
    const copy: Message = { ...message };
    if (survivors.length > 0) copy.tool_calls = survivors;
    else {
      delete copy.tool_calls;
      // Providers reject an assistant turn with neither tool calls nor visible content.
      if (isEmptyContent(copy.content)) copy.content = ORPHAN_CALL_CONTENT;
    }
    repaired.push(copy);
  }
  return { messages: repaired, repairs: { removedResults: [...orphanResults], strippedCalls, stubbedCalls } };
}
