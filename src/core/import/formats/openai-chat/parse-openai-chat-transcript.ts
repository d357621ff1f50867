import type { Message } from '../../../transcript/message.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { keepToolSchemas } from '../../keep-tool-schemas.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { unwrapCapturedBody } from '../../unwrap-captured-body.ts';
import type { ImportContext } from '../../import-context.ts';
import { childPath } from '../../import-warning.ts';
import type { DocumentProblem } from '../../json-document-converter.ts';
import { normalizeChatMessage } from '../../normalize-chat-message.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

/**
 * Reads OpenAI Chat Completions JSON: `{messages, tools?, model?}`, a bare array of messages, a
 * single `chat.completion` response, or a mini-swe-agent trajectory `{info, messages}`.
 * Provider and logging fields (`extra`, `provider_specific_fields`, `index`) are dropped: they
 * were never part of what the model read.
 */
export function openAiChatDocumentToDraft(
  value: unknown,
  context: ImportContext,
): Result<TranscriptDraft, DocumentProblem> {
  const draft = createTranscriptDraft('openai-chat');
  let document: Record<string, unknown> = {};
  // Each entry: the message and its JSON path.
  let entries: { raw: unknown; path: string }[];
  if (Array.isArray(value))
    entries = value.map((raw: unknown, index) => ({ raw, path: childPath('$', index) }));
  else if (isPlainObject(value)) {
    document = unwrapCapturedBody(value) ?? value;
    const basePath = document === value ? '$' : '$.body';
    if (Array.isArray(document.messages)) {
      const messagesPath = childPath(basePath, 'messages');
      entries = document.messages.map((raw: unknown, index) => ({
        raw,
        path: childPath(messagesPath, index),
      }));
    } else if (Array.isArray(document.choices)) {
      entries = responseMessages(document.choices, childPath(basePath, 'choices'), context);
    } else return err({ path: childPath(basePath, 'messages'), problem: 'is missing' });
  } else return err({ path: '$', problem: 'is neither an object nor an array' });

  const model = typeof document.model === 'string' ? document.model : miniSweAgentModel(document.info);
  if (model) draft.metadata.model = model;
  if (Array.isArray(document.tools))
    draft.metadata.tools = keepToolSchemas(
      document.tools,
      { path: document === value ? '$.tools' : '$.body.tools' },
      context,
    );

  // Legacy `function_call` turns are answered by `role:'function'` messages that carry only a name.
  const legacyCallIdByName = new Map<string, string>();
  for (const { raw, path } of entries) {
    const message = normalizeChatMessage(raw, { path }, context, {
      extraKeys: new Set<string>(),
      generatedIdPrefix: `call_m${draft.messages.length}`,
    });
    if (!message) continue;
    if (message.role === 'function') convertFunctionReply(message, legacyCallIdByName);
    for (const call of message.tool_calls ?? []) legacyCallIdByName.set(call.function.name, call.id);
    pushDraftMessage(draft, message, { path });
  }
  return ok(draft);
}

/** A chat.completion's answer: the first choice's message (`n > 1` alternatives are not a conversation). */
function responseMessages(
  choices: unknown[],
  path: string,
  context: ImportContext,
): { raw: unknown; path: string }[] {
  if (choices.length > 1)
    context.note({ path }, `holds ${choices.length} alternatives; only the first is imported`);
  const first: unknown = choices[0];
  return isPlainObject(first) && isPlainObject(first.message)
    ? [{ raw: first.message, path: `${childPath(path, 0)}.message` }]
    : [];
}

function convertFunctionReply(message: Message, legacyCallIdByName: Map<string, string>): void {
  message.role = 'tool';
  const callId = typeof message.name === 'string' ? legacyCallIdByName.get(message.name) : undefined;
  if (callId && message.tool_call_id === undefined) message.tool_call_id = callId;
}

function miniSweAgentModel(info: unknown): string | undefined {
  if (!isPlainObject(info) || !isPlainObject(info.config) || !isPlainObject(info.config.model))
    return undefined;
  const name = info.config.model.model_name;
  return typeof name === 'string' ? name : undefined;
}
