import type { Message, ToolCall } from '../../../transcript/message.ts';
import { keepToolSchemas } from '../../keep-tool-schemas.ts';
import { isPlainObject, safeParseJson } from '../../../shared/safe-parse-json.ts';
import { extractTaggedBlocks } from '../../extract-tagged-blocks.ts';
import type { ImportContext } from '../../import-context.ts';
import { childPath, type SourceLocation } from '../../import-warning.ts';
import { toIsoTimestamp } from '../../iso-timestamp.ts';
import type { JsonlRecordParser } from '../../jsonl-record-parser.ts';
import { normalizeChatContent } from '../../normalize-chat-message.ts';
import { stringifyJsonValue } from '../../stringify-json-value.ts';
import { toolArgumentsJson } from '../../tool-arguments-json.ts';
import { createTranscriptDraft, pushDraftMessage } from '../../transcript-draft.ts';

const USER_SPEAKERS = new Set(['human', 'user']);
const ASSISTANT_SPEAKERS = new Set(['gpt', 'assistant', 'model', 'chatgpt', 'bard', 'bing']);
const TOOL_SPEAKERS = new Set(['tool', 'observation', 'function_response', 'ipython']);

/**
 * Reads ShareGPT / Hermes trajectory JSONL (`{"conversations":[{from, value}]}` per line).
 * `<think>` becomes `reasoning`; `<tool_call>` JSON becomes tool calls with ids
 * `call_<line>_<n>` (trajectories carry none of their own that are unique); `<tool_response>`
 * blocks become tool messages answering the open calls by name, else by position. Several
 * conversations are imported one after another, each recorded as a segment.
 *
 * @see https://github.com/NousResearch/hermes-agent/blob/main/website/docs/developer-guide/trajectory-format.md
 */
interface OpenCall {
  call: ToolCall;
  answered: boolean;
}

export function createShareGptRecordParser(context: ImportContext): JsonlRecordParser {
  const draft = createTranscriptDraft('sharegpt');
  const segments: NonNullable<typeof draft.metadata.segments> = [];
  let openCalls: OpenCall[] = [];

  const addCall = (call: ToolCall, at: SourceLocation): void => {
    const last = draft.messages[draft.messages.length - 1];
    const segmentStart = segments[segments.length - 1]?.messageIndex ?? 0;
    if (last?.role === 'assistant' && draft.messages.length - 1 >= segmentStart) {
      last.tool_calls = [...(last.tool_calls ?? []), call];
    } else pushDraftMessage(draft, { role: 'assistant', content: '', tool_calls: [call] }, at);
    openCalls.push({ call, answered: false });
  };

  const answer = (name: string | undefined, content: string, at: SourceLocation): void => {
    const open =
      (name ? openCalls.find((entry) => !entry.answered && entry.call.function.name === name) : undefined) ??
      openCalls.find((entry) => !entry.answered);
    if (!open) {
      context.skipPart(at, 'has a tool response with no open tool call; dropped');
      return;
    }
    open.answered = true;
    pushDraftMessage(draft, { role: 'tool', tool_call_id: open.call.id, content }, at);
  };

  return {
    get messageCount() {
      return draft.messages.length;
    },
    acceptRecord(record, at) {
      const turns = record.conversations;
      if (!Array.isArray(turns)) {
        context.skipLine(at, 'has no "conversations" array');
        return;
      }
      const recordNumber = segments.length + 1;
      segments.push({
        messageIndex: draft.messages.length,
        ...(at.line !== undefined ? { line: at.line } : {}),
        label: `conversation ${recordNumber}${record.completed === false ? ' (not completed)' : ''}`,
      });
      readRecordMetadata(record);
      openCalls = [];
      const idPrefix = `call_${at.line ?? `r${recordNumber}`}`;
      let callNumber = 0;
      turns.forEach((turn: unknown, index) => {
        const turnAt: SourceLocation = { ...at, path: childPath(childPath(at.path, 'conversations'), index) };
        if (!isPlainObject(turn) || typeof turn.from !== 'string') {
          context.skipPart(turnAt, 'is not a {from, value} turn');
          return;
        }
        const speaker = turn.from.toLowerCase();
        if (Array.isArray(turn.value) && USER_SPEAKERS.has(speaker)) {
          // Hermes keeps a multimodal user turn as its content parts.
          const content = normalizeChatContent(turn.value, turnAt, context);
          pushDraftMessage(draft, { role: 'user', content }, turnAt);
          return;
        }
        if (typeof turn.value !== 'string') {
          context.skipPart(turnAt, 'is a turn whose value is not text');
          return;
        }
        const value = turn.value;
        if (speaker === 'system') {
          if (!draft.metadata.systemPrompt) readSystemPrompt(value, turnAt);
          pushDraftMessage(draft, { role: 'system', content: value }, turnAt);
        } else if (USER_SPEAKERS.has(speaker)) {
          pushDraftMessage(draft, { role: 'user', content: value }, turnAt);
        } else if (ASSISTANT_SPEAKERS.has(speaker)) {
          const parsed = parseAssistantValue(value, turnAt, context, () => `${idPrefix}_${callNumber++}`);
          const message: Message = { role: 'assistant', content: parsed.content };
          if (parsed.reasoning) message.reasoning = parsed.reasoning;
          pushDraftMessage(draft, message, turnAt);
          for (const call of parsed.calls) addCall(call, turnAt);
        } else if (speaker === 'function_call') {
          const call = toolCallFromJson(value, `${idPrefix}_${callNumber}`, turnAt, context);
          if (call) {
            callNumber += 1;
            addCall(call, turnAt);
          } else context.skipPart(turnAt, 'is a function_call turn that is not {name, arguments} JSON');
        } else if (TOOL_SPEAKERS.has(speaker)) {
          const { blocks } = extractTaggedBlocks(value, 'tool_response');
          if (blocks.length === 0) answer(undefined, value, turnAt);
          for (const block of blocks) {
            const response = parseToolResponse(block);
            answer(response.name, response.content, turnAt);
          }
        } else context.skipPart(turnAt, `has unknown speaker ${JSON.stringify(turn.from)}`);
      });
    },
    finish() {
      if (segments.length > 1) {
        draft.metadata.segments = segments;
        context.note(
          {},
          `${segments.length} conversations were imported one after another (see the segments)`,
        );
      }
      return draft;
    },
  };

  function readRecordMetadata(record: Record<string, unknown>): void {
    const { metadata } = draft;
    if (!metadata.model && typeof record.model === 'string') metadata.model = record.model;
    const timestamp = toIsoTimestamp(record.timestamp);
    if (timestamp) {
      metadata.startedAt ??= timestamp;
      metadata.endedAt = timestamp;
    }
  }

  function readSystemPrompt(value: string, at: SourceLocation): void {
    draft.metadata.systemPrompt = value;
    // The preamble names the tags in prose first ("within <tools> </tools> XML tags"): take the
    // first block that holds a JSON list.
    for (const block of extractTaggedBlocks(value, 'tools').blocks) {
      const parsed = safeParseJson(block.trim());
      if (parsed.ok && Array.isArray(parsed.value)) {
        draft.metadata.tools = keepToolSchemas(parsed.value, at, context);
        return;
      }
    }
  }
}

function parseAssistantValue(
  value: string,
  at: SourceLocation,
  context: ImportContext,
  nextId: () => string,
): { content: string; reasoning: string; calls: ToolCall[] } {
  const thoughts = extractTaggedBlocks(value, 'think');
  const toolCalls = extractTaggedBlocks(thoughts.rest, 'tool_call');
  const calls: ToolCall[] = [];
  const unreadable: string[] = [];
  for (const block of toolCalls.blocks) {
    const call = toolCallFromJson(block, '', at, context);
    if (call) calls.push({ ...call, id: nextId() });
    else {
      unreadable.push(`<tool_call>${block}</tool_call>`);
      context.repaired(at, 'has a <tool_call> block that is not {name, arguments} JSON; kept as text');
    }
  }
  return {
    content: [toolCalls.rest.trim(), ...unreadable].filter(Boolean).join('\n'),
    reasoning: thoughts.blocks
      .map((block) => block.trim())
      .filter(Boolean)
      .join('\n\n'),
    calls,
  };
}

function toolCallFromJson(
  text: string,
  id: string,
  at: SourceLocation,
  context: ImportContext,
): ToolCall | undefined {
  const parsed = safeParseJson(text.trim());
  if (!parsed.ok || !isPlainObject(parsed.value) || typeof parsed.value.name !== 'string') return undefined;
  const argumentsJson = toolArgumentsJson(parsed.value.arguments, at, context);
  return { id, type: 'function', function: { name: parsed.value.name, arguments: argumentsJson } };
}

function parseToolResponse(block: string): { name?: string; content: string } {
  const parsed = safeParseJson(block.trim());
  if (!parsed.ok || !isPlainObject(parsed.value)) return { content: block.trim() };
  const { name, content } = parsed.value;
  const text = typeof content === 'string' ? content : (stringifyJsonValue(content ?? parsed.value) ?? '');
  return typeof name === 'string' ? { name, content: text } : { content: text };
}
