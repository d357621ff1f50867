import type { ContentPart, Message, ToolCall } from '../../../transcript/message.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import type { ImportContext } from '../../import-context.ts';
import { childPath, type SourceLocation } from '../../import-warning.ts';
import { keepToolSchemas } from '../../keep-tool-schemas.ts';
import { toIsoTimestamp } from '../../iso-timestamp.ts';
import type { DocumentProblem } from '../../json-document-converter.ts';
import { normalizeToolCalls } from '../../normalize-chat-message.ts';
import { imagePart, partsToContent, textPart } from '../../parts-to-content.ts';
import { stringifyJsonValue } from '../../stringify-json-value.ts';
import { toolArgumentsJson } from '../../tool-arguments-json.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

/** Events that record the run's machinery, never what the model read. */
const SILENT_EVENTS = new Set(['change_agent_state', 'agent_state_changed', 'null', 'recall']);
/** Argument fields OpenHands adds for its own bookkeeping, not part of a call. */
const BOOKKEEPING_ARGS = new Set([
  'thought',
  'impl_source',
  'translated_ipython_code',
  'security_risk',
  'confirmation_state',
]);

/**
 * Reads an OpenHands event trajectory (the JSON array of `event_to_trajectory` dicts the UI
 * and `save_trajectory_path` write), as OpenHands' conversation memory turns events into
 * messages: the `system` action is the system prompt, user and agent `message` actions are
 * turns, every other agent action is a tool call and its observation the result.
 *
 * Actions of one model response share `tool_call_metadata.model_response`: the first of them
 * becomes the assistant message with that response's text, reasoning and all its calls (exact
 * arguments). Actions without metadata (older, non-function-calling agents) get a call named
 * after the action and answered by the observation whose `cause` is that action. A
 * `condensation` action is a compaction point (with its summary when it has one).
 *
 * @see https://github.com/All-Hands-AI/OpenHands/blob/main/openhands/events/serialization/event.py
 */
export function openHandsDocumentToDraft(
  value: unknown,
  context: ImportContext,
): Result<TranscriptDraft, DocumentProblem> {
  if (!Array.isArray(value)) return err({ path: '$', problem: 'is not an array of events' });
  const draft = createTranscriptDraft('openhands');
  const { metadata } = draft;
  const callIdByEvent = new Map<number, string>();
  const responsesSeen = new Set<string>();
  let silent = 0;

  value.forEach((raw: unknown, index) => {
    const at: SourceLocation = { path: childPath('$', index) };
    if (!isPlainObject(raw)) {
      context.skipLine(at, 'is not an event object');
      return;
    }
    const timestamp = toIsoTimestamp(raw.timestamp);
    if (timestamp) {
      metadata.startedAt ??= timestamp;
      metadata.endedAt = timestamp;
    }
    const args = isPlainObject(raw.args) ? raw.args : {};
    const toolMeta = isPlainObject(raw.tool_call_metadata) ? raw.tool_call_metadata : undefined;
    if (typeof raw.action === 'string') {
      const action = raw.action;
      if (SILENT_EVENTS.has(action)) silent += 1;
      else if (action === 'system') readSystem(args, draft, at, context);
      else if (action === 'message' && !toolMeta)
        addTurn(raw.source === 'user' ? 'user' : 'assistant', args, at, draft);
      else if (action === 'condensation') addCondensation(args, at, draft);
      else addAction(raw, action, args, toolMeta, at);
    } else if (typeof raw.observation === 'string') {
      if (SILENT_EVENTS.has(raw.observation)) silent += 1;
      else addObservation(raw, toolMeta, at);
    } else context.skipLine(at, 'is neither an action nor an observation');
  });
  if (silent > 0)
    context.note({}, `${silent} state-change and recall events carry nothing the model read; skipped`);
  return ok(draft);

  function addAction(
    event: Record<string, unknown>,
    action: string,
    args: Record<string, unknown>,
    toolMeta: Record<string, unknown> | undefined,
    at: SourceLocation,
  ): void {
    const eventId = typeof event.id === 'number' ? event.id : undefined;
    const response = toolMeta && isPlainObject(toolMeta.model_response) ? toolMeta.model_response : undefined;
    const responseId = response && typeof response.id === 'string' ? response.id : undefined;
    const metaCallId =
      toolMeta && typeof toolMeta.tool_call_id === 'string' ? toolMeta.tool_call_id : undefined;
    if (metaCallId && eventId !== undefined) callIdByEvent.set(eventId, metaCallId);
    if (responseId && responsesSeen.has(responseId)) return; // Its calls are on the message already.
    const message = responseId ? responseMessage(response!, at) : undefined;
    if (responseId) responsesSeen.add(responseId);
    if (message) {
      if (metadata.model === undefined && typeof response!.model === 'string')
        metadata.model = response!.model;
      pushDraftMessage(draft, message, at);
      return;
    }
    if (action === 'message') {
      addTurn('assistant', args, at, draft);
      return;
    }
    // No usable model response: one call built from the action itself.
    const id = metaCallId ?? `openhands_${eventId ?? draft.messages.length}`;
    if (eventId !== undefined) callIdByEvent.set(eventId, id);
    const name = toolMeta && typeof toolMeta.function_name === 'string' ? toolMeta.function_name : action;
    const callArgs = Object.fromEntries(Object.entries(args).filter(([key]) => !BOOKKEEPING_ARGS.has(key)));
    const call: ToolCall = {
      id,
      type: 'function',
      function: {
        name,
        arguments: toolArgumentsJson(callArgs, { ...at, path: childPath(at.path, 'args') }, context),
      },
    };
    const thought = typeof args.thought === 'string' ? args.thought : '';
    pushDraftMessage(draft, { role: 'assistant', content: thought, tool_calls: [call] }, at);
  }

  /** The assistant message of a model response: its text, reasoning and every call it made. */
  function responseMessage(response: Record<string, unknown>, at: SourceLocation): Message | undefined {
    const choice: unknown = Array.isArray(response.choices) ? response.choices[0] : undefined;
    if (!isPlainObject(choice) || !isPlainObject(choice.message)) return undefined;
    const source = choice.message;
    const message: Message = {
      role: 'assistant',
      content: typeof source.content === 'string' ? source.content : '',
    };
    const reasoning = source.reasoning_content;
    if (typeof reasoning === 'string' && reasoning) message.reasoning = reasoning;
    const calls = normalizeToolCalls(
      source.tool_calls,
      { ...at, path: childPath(at.path, 'tool_call_metadata.model_response.choices[0].message') },
      context,
      `openhands_${draft.messages.length}`,
    );
    if (calls.length > 0) message.tool_calls = calls;
    return message;
  }

  function addObservation(
    event: Record<string, unknown>,
    toolMeta: Record<string, unknown> | undefined,
    at: SourceLocation,
  ): void {
    const content =
      typeof event.content === 'string' ? event.content : (stringifyJsonValue(event.content ?? '') ?? '');
    const metaCallId =
      toolMeta && typeof toolMeta.tool_call_id === 'string' ? toolMeta.tool_call_id : undefined;
    const causeCallId = typeof event.cause === 'number' ? callIdByEvent.get(event.cause) : undefined;
    const id = metaCallId ?? causeCallId;
    if (id) {
      const message: Message = { role: 'tool', tool_call_id: id, content };
      if (event.observation === 'error' || event.success === false) message.is_error = true;
      pushDraftMessage(draft, message, at);
      return;
    }
    // Observations no action asked for (errors the controller raised) reach the model as user text.
    pushDraftMessage(draft, { role: 'user', content }, at);
  }

  function addCondensation(args: Record<string, unknown>, at: SourceLocation, target: TranscriptDraft): void {
    const summary = typeof args.summary === 'string' ? args.summary : '';
    target.metadata.compactionPoints.push({
      messageIndex: target.messages.length,
      kind: 'openhands-condensation',
      ...(summary ? { summary } : {}),
    });
    context.note(
      at,
      'is an OpenHands condensation: the events it forgot stay in the trajectory, the point is marked',
    );
  }
}

function readSystem(
  args: Record<string, unknown>,
  draft: TranscriptDraft,
  at: SourceLocation,
  context: ImportContext,
): void {
  if (typeof args.content === 'string' && args.content) draft.metadata.systemPrompt = args.content;
  if (Array.isArray(args.tools))
    draft.metadata.tools = keepToolSchemas(
      args.tools,
      { ...at, path: childPath(at.path, 'args.tools') },
      context,
    );
}

function addTurn(
  role: 'user' | 'assistant',
  args: Record<string, unknown>,
  at: SourceLocation,
  draft: TranscriptDraft,
): void {
  const text = typeof args.content === 'string' ? args.content : '';
  const parts: ContentPart[] = text ? [textPart(text)] : [];
  if (Array.isArray(args.image_urls)) {
    for (const url of args.image_urls) if (typeof url === 'string') parts.push(imagePart(url));
  }
  pushDraftMessage(draft, { role, content: partsToContent(parts) }, at);
}
