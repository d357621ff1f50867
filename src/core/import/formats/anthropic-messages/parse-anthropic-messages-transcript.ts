import type { Message } from '../../../transcript/message.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { keepToolSchemas } from '../../keep-tool-schemas.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { unwrapCapturedBody } from '../../unwrap-captured-body.ts';
import { convertAnthropicContent, type ToolResultDraft } from '../../convert-anthropic-content.ts';
import type { ImportContext } from '../../import-context.ts';
import { childPath, type SourceLocation } from '../../import-warning.ts';
import type { DocumentProblem } from '../../json-document-converter.ts';
import { partsToContent } from '../../parts-to-content.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

/**
 * Reads Anthropic Messages JSON: a request `{model, system, messages, tools}` (also inside an
 * HTTP capture under `body`), a bare array of messages, or one response `{type:'message'}`.
 * `tool_result` blocks become `role:'tool'` messages in order, followed by the rest of the user
 * turn; server tool results (web search, code execution) follow the assistant message that
 * made the call.
 *
 * @see https://docs.anthropic.com/en/api/messages
 */
export function anthropicMessagesDocumentToDraft(
  value: unknown,
  context: ImportContext,
): Result<TranscriptDraft, DocumentProblem> {
  const draft = createTranscriptDraft('anthropic-messages');
  let messages: unknown[];
  let basePath = '$';
  let document: Record<string, unknown> = {};
  if (Array.isArray(value)) messages = value;
  else if (isPlainObject(value)) {
    document = unwrapCapturedBody(value) ?? value;
    if (document !== value) basePath = '$.body';
    if (document.type === 'message' && document.role === 'assistant') messages = [document];
    else if (Array.isArray(document.messages)) {
      messages = document.messages;
      basePath = childPath(basePath, 'messages');
    } else return err({ path: childPath(basePath, 'messages'), problem: 'is missing' });
  } else return err({ path: '$', problem: 'is neither an object nor an array' });

  if (typeof document.model === 'string') draft.metadata.model = document.model;
  if (Array.isArray(document.tools))
    draft.metadata.tools = keepToolSchemas(document.tools, { path: childPath(basePath, 'tools') }, context);
  const systemPrompt = systemText(document.system);
  if (systemPrompt) draft.metadata.systemPrompt = systemPrompt;

  messages.forEach((raw: unknown, index) => {
    const at: SourceLocation = {
      path: messages.length === 1 && raw === document ? '$' : childPath(basePath, index),
    };
    if (!isPlainObject(raw)) {
      context.skipLine(at, 'is not a message object');
      return;
    }
    appendAnthropicMessage(draft, raw, at, context, `toolu_m${index}`);
  });
  return ok(draft);
}

/**
 * Appends one Anthropic message (user or assistant) in the OpenAI shape. Shared with the Claude
 * Code parser, whose records carry the same message objects.
 */
export function appendAnthropicMessage(
  draft: TranscriptDraft,
  raw: Record<string, unknown>,
  at: SourceLocation,
  context: ImportContext,
  generatedIdPrefix: string,
): void {
  const role = raw.role;
  if (role !== 'user' && role !== 'assistant') {
    context.skipLine(at, `has unknown role ${JSON.stringify(String(role))}`);
    return;
  }
  const contentAt = { ...at, path: childPath(at.path, 'content') };
  const converted = convertAnthropicContent(raw.content, contentAt, context, generatedIdPrefix);
  if (role === 'user') {
    for (const result of converted.toolResults) pushDraftMessage(draft, toolMessage(result), result.at);
    if (converted.parts.length > 0)
      pushDraftMessage(draft, { role: 'user', content: partsToContent(converted.parts) }, at);
    return;
  }
  const isEmpty =
    converted.parts.length === 0 &&
    converted.reasoning.length === 0 &&
    converted.toolCalls.length === 0 &&
    converted.compactions.length === 0 &&
    converted.toolResults.length === 0;
  if (isEmpty) {
    context.skipLine(at, 'is an assistant message with nothing readable');
    return;
  }
  const message: Message = { role: 'assistant', content: partsToContent(converted.parts) };
  if (converted.reasoning.length > 0) message.reasoning = converted.reasoning.join('\n\n');
  if (converted.toolCalls.length > 0) message.tool_calls = converted.toolCalls;
  const index = pushDraftMessage(draft, message, at);
  for (const summary of converted.compactions) {
    draft.metadata.compactionPoints.push({ messageIndex: index, kind: 'anthropic-compaction', summary });
  }
  for (const result of converted.toolResults) pushDraftMessage(draft, toolMessage(result), result.at);
}

export function toolMessage(result: ToolResultDraft): Message {
  const message: Message = { role: 'tool', content: result.content };
  if (result.toolCallId !== undefined) message.tool_call_id = result.toolCallId;
  if (result.isError) message.is_error = true;
  return message;
}

function systemText(system: unknown): string | undefined {
  if (typeof system === 'string') return system || undefined;
  if (!Array.isArray(system)) return undefined;
  const texts = system.flatMap((block: unknown) =>
    isPlainObject(block) && typeof block.text === 'string' ? [block.text] : [],
  );
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}
