import type { Message, MessageContent, ToolCall } from '../../../transcript/message.ts';
import type { Result } from '../../../shared/result.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { codexReasoningText, convertCodexContent } from '../../convert-codex-content.ts';
import type { ImportContext } from '../../import-context.ts';
import type { SourceLocation } from '../../import-warning.ts';
import { toIsoTimestamp } from '../../iso-timestamp.ts';
import type { JsonlRecordParser } from '../../jsonl-record-parser.ts';
import { appendContent, appendReasoning } from '../../append-to-message.ts';
import { stringifyJsonValue } from '../../stringify-json-value.ts';
import { callArguments, callName, stringOf, webSearchQuery } from '../../read-codex-item-fields.ts';
import { createTranscriptDraft, pushDraftMessage, removeDraftMessages } from '../../transcript-draft.ts';

/** Envelope types that carry nothing for the conversation. */
const IGNORED_RECORD_TYPES = new Set(['world_state', 'inter_agent_communication_metadata']);
const CALL_ITEM_TYPES = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'tool_search_call',
]);
const OUTPUT_ITEM_TYPES = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
  'tool_search_output',
  'function_result',
]);
const MESSAGE_ROLES = new Set(['user', 'assistant', 'developer', 'system']);

/**
 * Reads a Codex CLI rollout (`{timestamp, type, payload}` per line, and the older bare items).
 *
 * Consecutive assistant-side items (reasoning, messages, calls) form one assistant message; a
 * user message or a tool output ends it. Calls and outputs pair by `call_id`. `event_msg`
 * user/agent messages are UI copies of response items: they are used only for a role the file
 * has no response-item messages of (old or trimmed rollouts), and never when one repeats them. A `compacted` record becomes a compaction point and, when it has a summary, the
 * user message Codex itself puts in the new history; a `replacement_history` is not expanded
 * (it rewrites turns already in the file): the point records its size as `replacedItems` and
 * the summary text. Web searches and image generations (no call id, no output) are noted in
 * the assistant text; inter-agent `agent_message` items are skipped with a note.
 */
export function createCodexRolloutRecordParser(context: ImportContext): JsonlRecordParser {
  const draft = createTranscriptDraft('codex-rollout');
  const { metadata } = draft;
  let runIndex = -1;
  let pendingReasoning: string[] = [];
  // Server-side actions (web search, image generation) with no call id, noted on the next assistant message.
  let pendingNotes: string[] = [];
  let skippedAgentMessages = 0;
  const eventMessageIndices = new Set<number>();
  const responseMessageKeys = new Set<string>();
  const responseRoles = new Set<string>();
  const idlessCalls: { id: string; name: string; answered: boolean }[] = [];

  const closeRun = (at: SourceLocation): void => {
    if (pendingReasoning.length > 0) {
      // Reasoning that no visible output followed (an aborted turn): kept, the tokens were spent.
      pushDraftMessage(
        draft,
        { role: 'assistant', content: '', reasoning: pendingReasoning.join('\n\n') },
        at,
      );
      pendingReasoning = [];
    }
    pendingNotes = [];
    runIndex = -1;
  };

  const runMessage = (at: SourceLocation): Message => {
    if (runIndex === -1) runIndex = pushDraftMessage(draft, { role: 'assistant', content: '' }, at);
    const message = draft.messages[runIndex]!;
    if (pendingReasoning.length > 0) {
      appendReasoning(message, pendingReasoning.join('\n\n'));
      pendingReasoning = [];
    }
    for (const note of pendingNotes) appendContent(message, note);
    pendingNotes = [];
    return message;
  };

  const addCall = (item: Record<string, unknown>, at: SourceLocation): void => {
    const name = callName(item);
    let id = stringOf(item.call_id) || stringOf(item.id);
    if (!id) {
      id = `call_${at.line ?? draft.messages.length}_${idlessCalls.length}`;
      idlessCalls.push({ id, name, answered: false });
      context.repaired(at, `is a ${String(item.type)} without a call_id; named "${id}"`);
    }
    const call: ToolCall = { id, type: 'function', function: { name, arguments: callArguments(item) } };
    const message = runMessage(at);
    message.tool_calls = [...(message.tool_calls ?? []), call];
  };

  const addOutput = (item: Record<string, unknown>, at: SourceLocation): void => {
    closeRun(at);
    let id = stringOf(item.call_id);
    if (!id) {
      const name = stringOf(item.name);
      const open = newestOpenCall(idlessCalls, name) ?? newestOpenCall(idlessCalls, undefined);
      if (open) {
        open.answered = true;
        id = open.id;
        context.repaired(at, `is a tool output without a call_id; paired with "${id}"`);
      }
    }
    const output = item.type === 'function_result' ? item.result : item.output;
    const converted =
      item.type === 'tool_search_output'
        ? { content: stringifyJsonValue(item.tools ?? []) ?? '' }
        : convertCodexContent(output);
    const message: Message = { role: 'tool', content: converted.content };
    if (id) message.tool_call_id = id;
    pushDraftMessage(draft, message, at);
  };

  const addMessage = (role: string, content: unknown, at: SourceLocation, fromEvent: boolean): void => {
    const converted = convertCodexContent(content);
    if (converted.droppedItems > 0)
      context.skipPart(at, `has ${converted.droppedItems} content items with no text or image url; dropped`);
    const key = `${role}\u0000${converted.text.trim()}`;
    if (!fromEvent) responseRoles.add(role);
    if (role === 'assistant' && !fromEvent) {
      responseMessageKeys.add(key);
      appendContent(runMessage(at), converted.content);
      return;
    }
    if (role !== 'assistant') closeRun(at);
    const index = pushDraftMessage(draft, { role, content: converted.content }, at);
    if (fromEvent) eventMessageIndices.add(index);
    else responseMessageKeys.add(key);
  };

  const addNote = (text: string): void => {
    if (runIndex === -1) pendingNotes.push(text);
    else appendContent(draft.messages[runIndex]!, text);
  };

  const handleItem = (item: Record<string, unknown>, at: SourceLocation): void => {
    const type = stringOf(item.type);
    if (type === 'message') {
      const role = stringOf(item.role);
      if (MESSAGE_ROLES.has(role)) addMessage(role, item.content, at, false);
      else context.skipLine(at, `is a message with unknown role ${JSON.stringify(role)}`);
    } else if (type === 'reasoning') {
      const text = codexReasoningText(item);
      if (!text) return;
      if (runIndex === -1) pendingReasoning.push(text);
      else appendReasoning(draft.messages[runIndex]!, text);
    } else if (CALL_ITEM_TYPES.has(type)) addCall(item, at);
    else if (OUTPUT_ITEM_TYPES.has(type)) addOutput(item, at);
    else if (type === 'web_search_call') addNote(`[web search: ${webSearchQuery(item.action)}]`);
    else if (type === 'image_generation_call')
      addNote(`[image generation: ${stringOf(item.revised_prompt)}]`);
    else if (type === 'agent_message') skippedAgentMessages += 1;
    else if (type === 'compaction') addCompaction('codex-compacted', '', undefined, at);
    else if (type !== 'ghost_snapshot') context.skipLine(at, `has unknown item type ${JSON.stringify(type)}`);
  };

  const addCompaction = (
    kind: 'codex-compacted' | 'codex-context-compacted',
    summary: string,
    replacedItems: number | undefined,
    at: SourceLocation,
  ): void => {
    closeRun(at);
    metadata.compactionPoints.push({
      messageIndex: draft.messages.length,
      kind,
      ...(at.line !== undefined ? { line: at.line } : {}),
      ...(summary ? { summary } : {}),
      ...(replacedItems !== undefined ? { replacedItems } : {}),
    });
    // Local compaction puts the summary in the new history as a user message; a remote one
    // carries its own `replacement_history`, where the summary already lives.
    if (summary && replacedItems === undefined)
      pushDraftMessage(draft, { role: 'user', content: summary }, at);
  };

  const handleEnvelope = (type: string, payload: Record<string, unknown>, at: SourceLocation): void => {
    if (type === 'session_meta') readSessionMeta(payload);
    else if (type === 'turn_context') {
      if (typeof payload.model === 'string') metadata.model = payload.model;
      if (typeof payload.cwd === 'string') metadata.cwd ??= payload.cwd;
    } else if (type === 'response_item') handleItem(payload, at);
    else if (type === 'compacted') {
      const history = payload.replacement_history;
      addCompaction(
        'codex-compacted',
        stringOf(payload.message),
        Array.isArray(history) ? history.length : undefined,
        at,
      );
    } else if (type === 'event_msg') {
      const eventType = stringOf(payload.type);
      if (eventType === 'user_message') addMessage('user', stringOf(payload.message), at, true);
      else if (eventType === 'agent_message') addMessage('assistant', stringOf(payload.message), at, true);
      else if (eventType === 'context_compacted') addCompaction('codex-context-compacted', '', undefined, at);
    } else if (!IGNORED_RECORD_TYPES.has(type))
      context.skipLine(at, `has unknown record type ${JSON.stringify(type)}`);
  };

  const readSessionMeta = (payload: Record<string, unknown>): void => {
    if (metadata.sourceSessionId !== undefined) return;
    const id = stringOf(payload.id) || stringOf(payload.session_id);
    if (id) metadata.sourceSessionId = id;
    if (typeof payload.cwd === 'string') metadata.cwd = payload.cwd;
    const instructions = isPlainObject(payload.base_instructions)
      ? payload.base_instructions.text
      : payload.instructions;
    if (typeof instructions === 'string' && instructions) metadata.systemPrompt = instructions;
    const startedAt = toIsoTimestamp(payload.timestamp);
    if (startedAt) metadata.startedAt = startedAt;
  };

  return {
    get messageCount() {
      return draft.messages.length;
    },
    acceptRecord(record, at) {
      const timestamp = toIsoTimestamp(record.timestamp ?? record.created_at);
      if (timestamp) {
        metadata.startedAt ??= timestamp;
        metadata.endedAt = timestamp;
      }
      const type = record.type;
      if (typeof type === 'string' && isPlainObject(record.payload)) handleEnvelope(type, record.payload, at);
      else if (typeof type === 'string') handleItem(record, at);
      else if (typeof record.role === 'string') {
        const role = record.role;
        if (MESSAGE_ROLES.has(role)) addMessage(role, record.content ?? record.message, at, false);
        else context.skipLine(at, `is a message with unknown role ${JSON.stringify(role)}`);
      } else if (typeof record.id === 'string' && metadata.sourceSessionId === undefined)
        readSessionMeta(record);
      else context.skipLine(at, 'is not a Codex rollout record (no "type")');
    },
    finish() {
      closeRun({});
      if (skippedAgentMessages > 0) {
        context.note(
          {},
          `${skippedAgentMessages} inter-agent messages (multi-agent coordination) were skipped`,
        );
      }
      // Where the rollout records response items, they are what the model read and the events
      // are UI copies; events stand in only for a role that has no response items at all.
      const duplicates = new Set<number>();
      for (const index of eventMessageIndices) {
        const message = draft.messages[index]!;
        const text = typeof message.content === 'string' ? message.content : '';
        if (
          responseRoles.has(message.role) ||
          responseMessageKeys.has(`${message.role}\u0000${text.trim()}`)
        ) {
          duplicates.add(index);
        }
      }
      removeDraftMessages(draft, duplicates);
      return draft;
    },
  };
}

function newestOpenCall<T extends { name: string; answered: boolean }>(
  calls: T[],
  name: string | undefined,
): T | undefined {
  for (let index = calls.length - 1; index >= 0; index -= 1) {
    const call = calls[index]!;
    if (!call.answered && (name === undefined || call.name === name)) return call;
  }
  return undefined;
}
