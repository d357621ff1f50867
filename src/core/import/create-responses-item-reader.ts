import type { CompactionPointKind } from '../transcript/transcript.ts';
import type { Message, ToolCall } from '../transcript/message.ts';
import { appendContent, appendReasoning } from './append-to-message.ts';
import { codexReasoningText, convertCodexContent } from './convert-codex-content.ts';
import type { ImportContext } from './import-context.ts';
import type { SourceLocation } from './import-warning.ts';
import { callArguments, callName, stringOf, webSearchQuery } from './read-codex-item-fields.ts';
import { stringifyJsonValue } from './stringify-json-value.ts';
import { pushDraftMessage, type TranscriptDraft } from './transcript-draft.ts';

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
export const RESPONSES_MESSAGE_ROLES = new Set(['user', 'assistant', 'developer', 'system']);

export interface ResponsesItemReaderOptions {
  /** The kind of compaction point a `compaction` item becomes. */
  compactionKind: CompactionPointKind;
  /** Say how many reasoning items were encrypted (every Codex turn has them; a Responses list may not). */
  noteEncryptedReasoning: boolean;
}

/**
 * Turns OpenAI Responses items (as Codex rollouts record them and as a Responses `input` or
 * `output` list holds them) into chat messages, in order.
 *
 * Consecutive assistant-side items (reasoning, messages, calls) form one assistant message; a
 * user message or a tool output ends it. Calls and outputs pair by `call_id` (an output without
 * one answers the newest open call without one). Web searches and image generations (no call
 * id, no output) are noted in the assistant text; reasoning with no readable text (encrypted)
 * and inter-agent messages carry nothing a person can read and are counted, not kept.
 */
export function createResponsesItemReader(
  draft: TranscriptDraft,
  context: ImportContext,
  options: ResponsesItemReaderOptions,
) {
  let runIndex = -1;
  let pendingReasoning: string[] = [];
  // Server-side actions (web search, image generation) with no call id, noted on the next assistant message.
  let pendingNotes: string[] = [];
  let skippedAgentMessages = 0;
  let encryptedReasoning = 0;
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
    const call: ToolCall = {
      id,
      type: 'function',
      function: { name, arguments: callArguments(item, at, context) },
    };
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

  /**
   * A message item. Assistant text joins the current run; any other role ends it. Returns the
   * index of a message it added on its own (not merged into a run), with its plain text.
   */
  const addMessage = (
    role: string,
    content: unknown,
    at: SourceLocation,
  ): { index: number | undefined; text: string } => {
    const converted = convertCodexContent(content);
    if (converted.droppedItems > 0)
      context.skipPart(at, `has ${converted.droppedItems} content items with no text or image url; dropped`);
    if (role === 'assistant') {
      appendContent(runMessage(at), converted.content);
      return { index: undefined, text: converted.text };
    }
    closeRun(at);
    return { index: pushDraftMessage(draft, { role, content: converted.content }, at), text: converted.text };
  };

  /** Adds assistant text on its own (a UI copy that is the only record of an answer). */
  const addStandaloneMessage = (role: string, content: unknown, at: SourceLocation): number => {
    const converted = convertCodexContent(content);
    if (role !== 'assistant') closeRun(at);
    return pushDraftMessage(draft, { role, content: converted.content }, at);
  };

  const addNote = (text: string): void => {
    if (runIndex === -1) pendingNotes.push(text);
    else appendContent(draft.messages[runIndex]!, text);
  };

  const addCompaction = (
    kind: CompactionPointKind,
    summary: string,
    replacedItems: number | undefined,
    at: SourceLocation,
  ): void => {
    closeRun(at);
    draft.metadata.compactionPoints.push({
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

  /** One Responses item. Returns the index of a standalone message it added, if any. */
  const readItem = (item: Record<string, unknown>, at: SourceLocation): number | undefined => {
    const type = stringOf(item.type) || (typeof item.role === 'string' ? 'message' : '');
    if (type === 'message') {
      const role = stringOf(item.role);
      if (RESPONSES_MESSAGE_ROLES.has(role)) return addMessage(role, item.content, at).index;
      context.skipLine(at, `is a message with unknown role ${JSON.stringify(role)}`);
    } else if (type === 'reasoning') {
      const text = codexReasoningText(item);
      if (!text) {
        encryptedReasoning += 1;
        return undefined;
      }
      if (runIndex === -1) pendingReasoning.push(text);
      else appendReasoning(draft.messages[runIndex]!, text);
    } else if (CALL_ITEM_TYPES.has(type)) addCall(item, at);
    else if (OUTPUT_ITEM_TYPES.has(type)) addOutput(item, at);
    else if (type === 'web_search_call') addNote(`[web search: ${webSearchQuery(item.action)}]`);
    else if (type === 'image_generation_call')
      addNote(`[image generation: ${stringOf(item.revised_prompt)}]`);
    else if (type === 'agent_message') skippedAgentMessages += 1;
    else if (type === 'compaction') addCompaction(options.compactionKind, '', undefined, at);
    else if (type !== 'ghost_snapshot') context.skipLine(at, `has unknown item type ${JSON.stringify(type)}`);
    return undefined;
  };

  return {
    readItem,
    addMessage,
    addStandaloneMessage,
    addCompaction,
    closeRun,
    /** Closes the last run and notes what was counted but not kept. */
    finish(): void {
      closeRun({});
      if (skippedAgentMessages > 0) {
        context.note(
          {},
          `${skippedAgentMessages} inter-agent messages (multi-agent coordination) were skipped`,
        );
      }
      if (options.noteEncryptedReasoning && encryptedReasoning > 0) {
        context.note(
          {},
          `${encryptedReasoning} reasoning items hold only encrypted content; the provider priced them, but there is no text to keep`,
        );
      }
    },
  };
}

export type ResponsesItemReader = ReturnType<typeof createResponsesItemReader>;

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
