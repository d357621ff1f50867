import type { ContentPart, Message, ToolCall } from '../../../transcript/message.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import type { ImportContext } from '../../import-context.ts';
import { childPath, type SourceLocation } from '../../import-warning.ts';
import { toIsoTimestamp } from '../../iso-timestamp.ts';
import type { JsonlRecordParser } from '../../jsonl-record-parser.ts';
import { imagePart, partsToContent, textPart } from '../../parts-to-content.ts';
import { stringifyJsonValue } from '../../stringify-json-value.ts';
import { toolArgumentsJson } from '../../tool-arguments-json.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

/** Message types Gemini CLI shows in its UI but never sends to the model. */
const UI_ONLY_TYPES = new Set(['info', 'error', 'warning']);

interface StoredMessage {
  record: Record<string, unknown>;
  at: SourceLocation;
}

interface OpenCall {
  id: string;
  name: string;
  answered: boolean;
}

/**
 * Reads a Gemini CLI session (`~/.gemini/tmp/<project>/chats/session-*.json[l]`): the legacy
 * JSON `{sessionId, projectHash, startTime, lastUpdated, messages}`, or the JSONL log of that
 * header, message records, `{$set: …}` updates and `{$rewindTo: id}` rewinds. As Gemini CLI
 * itself loads it: a message id written again replaces the earlier copy in its place, a
 * rewind drops that message and everything after it, and a `$set.messages` replaces the list.
 *
 * `user` messages are user turns; `gemini` messages are assistant turns whose `toolCalls`
 * become tool calls, each followed by its recorded `result` (function responses) as a tool
 * message; `thoughts` become reasoning. A user turn that only repeats function responses
 * already recorded on the calls is not a turn. `info`, `error` and `warning` messages are UI
 * notices, counted in a note.
 *
 * @see https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/services/chatRecordingService.ts
 */
export function createGeminiCliRecordParser(context: ImportContext): JsonlRecordParser {
  const draft = createTranscriptDraft('gemini-cli');
  const { metadata } = draft;
  const messages = new Map<string, StoredMessage>();
  let replacement: StoredMessage[] | undefined;
  let anonymous = 0;

  const addMessage = (record: Record<string, unknown>, at: SourceLocation): void => {
    const id = typeof record.id === 'string' && record.id ? record.id : `#${(anonymous += 1)}`;
    messages.set(id, { record, at });
  };

  const readHeader = (record: Record<string, unknown>): void => {
    if (typeof record.sessionId === 'string') metadata.sourceSessionId = record.sessionId;
    const startedAt = toIsoTimestamp(record.startTime);
    if (startedAt) metadata.startedAt = startedAt;
    const endedAt = toIsoTimestamp(record.lastUpdated);
    if (endedAt) metadata.endedAt = endedAt;
    if (typeof record.summary === 'string' && record.summary) metadata.title = record.summary;
    if (Array.isArray(record.directories) && typeof record.directories[0] === 'string')
      metadata.cwd = record.directories[0];
  };

  const rewindTo = (id: string): void => {
    let found = false;
    for (const key of [...messages.keys()]) {
      if (key === id) found = true;
      if (found) messages.delete(key);
    }
    if (!found) messages.clear();
  };

  return {
    get messageCount() {
      return messages.size;
    },
    acceptRecord(record, at) {
      if (typeof record.$rewindTo === 'string') return rewindTo(record.$rewindTo);
      if (isPlainObject(record.$set)) {
        readHeader(record.$set);
        if (Array.isArray(record.$set.messages)) {
          const path = childPath(childPath(at.path, '$set'), 'messages');
          replacement = collectMessages(record.$set.messages, { ...at, path }, context);
        }
        return;
      }
      if (typeof record.sessionId === 'string' || Array.isArray(record.messages)) {
        readHeader(record);
        if (record.kind === 'subagent') context.note(at, 'is a sub-agent session');
        if (Array.isArray(record.messages)) {
          const list = collectMessages(
            record.messages,
            { ...at, path: childPath(at.path, 'messages') },
            context,
          );
          for (const message of list) addMessage(message.record, message.at);
        }
        return;
      }
      if (typeof record.type === 'string' && 'content' in record) return addMessage(record, at);
      context.skipLine(at, 'is not a Gemini CLI record (no message type, "$set" or "$rewindTo")');
    },
    finish() {
      const list = replacement && replacement.length > 0 ? replacement : [...messages.values()];
      convertMessages(list, draft, context);
      return draft;
    },
  };
}

function collectMessages(
  items: readonly unknown[],
  at: SourceLocation,
  context: ImportContext,
): StoredMessage[] {
  const list: StoredMessage[] = [];
  items.forEach((item: unknown, index) => {
    const itemAt = { ...at, path: childPath(at.path, index) };
    if (isPlainObject(item)) list.push({ record: item, at: itemAt });
    else context.skipLine(itemAt, 'is not a message object');
  });
  return list;
}

function convertMessages(
  list: readonly StoredMessage[],
  draft: TranscriptDraft,
  context: ImportContext,
): void {
  let openCalls: OpenCall[] = [];
  let uiNotices = 0;
  for (const { record, at } of list) {
    const type = record.type;
    if (type === 'gemini') {
      openCalls = addGeminiMessage(record, at, draft, context);
      if (typeof record.model === 'string' && record.model) draft.metadata.model = record.model;
    } else if (type === 'user') {
      addUserMessage(record, at, openCalls, draft, context);
      openCalls = [];
    } else if (typeof type === 'string' && UI_ONLY_TYPES.has(type)) uiNotices += 1;
    else context.skipLine(at, `has unknown message type ${JSON.stringify(type)}`);
  }
  if (uiNotices > 0)
    context.note(
      {},
      `${uiNotices} info/error/warning notices were shown in Gemini CLI, never sent to the model; skipped`,
    );
}

/** The assistant turn and the results recorded on its calls; returns the calls still open. */
function addGeminiMessage(
  record: Record<string, unknown>,
  at: SourceLocation,
  draft: TranscriptDraft,
  context: ImportContext,
): OpenCall[] {
  const { texts, images, thoughts } = readParts(
    record.content,
    { ...at, path: childPath(at.path, 'content') },
    context,
  );
  const message: Message = { role: 'assistant', content: partsToContent([...texts, ...images]) };
  const reasoning = [...thoughtSummaries(record.thoughts), ...thoughts];
  if (reasoning.length > 0) message.reasoning = reasoning.join('\n\n');
  const calls: ToolCall[] = [];
  const results: { id: string; record: Record<string, unknown>; at: SourceLocation }[] = [];
  const rawCalls = Array.isArray(record.toolCalls) ? record.toolCalls : [];
  rawCalls.forEach((raw: unknown, index) => {
    const callAt = { ...at, path: childPath(childPath(at.path, 'toolCalls'), index) };
    if (!isPlainObject(raw)) {
      context.skipPart(callAt, 'is not a tool call object');
      return;
    }
    let id = typeof raw.id === 'string' && raw.id ? raw.id : '';
    if (!id) {
      id = `gemini_${at.line ?? draft.messages.length}_${index}`;
      context.repaired(callAt, `is a tool call without an id; named "${id}"`);
    }
    const name = typeof raw.name === 'string' && raw.name ? raw.name : 'unknown';
    calls.push({
      id,
      type: 'function',
      function: {
        name,
        arguments: toolArgumentsJson(
          raw.args ?? {},
          { ...callAt, path: childPath(callAt.path, 'args') },
          context,
        ),
      },
    });
    results.push({ id, record: raw, at: callAt });
  });
  if (calls.length > 0) message.tool_calls = calls;
  if (calls.length === 0 && texts.length + images.length === 0 && reasoning.length === 0) {
    context.skipLine(at, 'is a gemini message with nothing readable');
    return [];
  }
  pushDraftMessage(draft, message, at);
  const open: OpenCall[] = [];
  for (const result of results) {
    const call = calls.find((candidate) => candidate.id === result.id)!;
    const responses = functionResponses(result.record.result);
    if (responses.length === 0) {
      open.push({ id: result.id, name: call.function.name, answered: false });
      continue;
    }
    const failed = result.record.status === 'error' || result.record.status === 'cancelled';
    pushDraftMessage(draft, toolMessage(result.id, responses, failed), result.at);
  }
  return open;
}

/** A user turn; function responses in it answer calls that had no recorded result. */
function addUserMessage(
  record: Record<string, unknown>,
  at: SourceLocation,
  openCalls: OpenCall[],
  draft: TranscriptDraft,
  context: ImportContext,
): void {
  const contentAt = { ...at, path: childPath(at.path, 'content') };
  const { texts, images, responses } = readParts(record.content, contentAt, context);
  for (const response of responses) {
    const name = typeof response.name === 'string' ? response.name : '';
    const call =
      openCalls.find((candidate) => !candidate.answered && candidate.id === response.id) ??
      openCalls.find((candidate) => !candidate.answered && candidate.name === name);
    if (!call) continue; // Already recorded on its call: the same result, repeated for the model's history.
    call.answered = true;
    pushDraftMessage(draft, toolMessage(call.id, [response], false), contentAt);
  }
  if (texts.length + images.length > 0)
    pushDraftMessage(draft, { role: 'user', content: partsToContent([...texts, ...images]) }, at);
}

function toolMessage(id: string, responses: readonly Record<string, unknown>[], failed: boolean): Message {
  const texts = responses.map(functionResponseText);
  const message: Message = { role: 'tool', tool_call_id: id, content: texts.join('\n') };
  if (
    failed ||
    responses.some((response) => isPlainObject(response.response) && 'error' in response.response)
  )
    message.is_error = true;
  return message;
}

/** What a function response said: its `output`, its `error`, or the whole response as JSON. */
function functionResponseText(response: Record<string, unknown>): string {
  const payload = response.response;
  if (isPlainObject(payload)) {
    if (typeof payload.output === 'string') return payload.output;
    if (typeof payload.error === 'string') return payload.error;
    if (typeof payload.content === 'string') return payload.content;
  }
  return stringifyJsonValue(payload ?? {}) ?? '';
}

/** The `functionResponse` objects of a part list (a tool call's recorded `result`). */
function functionResponses(value: unknown): Record<string, unknown>[] {
  return partList(value).flatMap((part) =>
    isPlainObject(part) && isPlainObject(part.functionResponse) ? [part.functionResponse] : [],
  );
}

/** Gemini's PartListUnion: a string, one part, or a list of strings and parts. */
function partList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function readParts(
  value: unknown,
  at: SourceLocation,
  context: ImportContext,
): { texts: ContentPart[]; images: ContentPart[]; thoughts: string[]; responses: Record<string, unknown>[] } {
  const texts: ContentPart[] = [];
  const images: ContentPart[] = [];
  const thoughts: string[] = [];
  const responses: Record<string, unknown>[] = [];
  partList(value).forEach((part: unknown, index) => {
    const partAt = { ...at, path: Array.isArray(value) ? childPath(at.path, index) : at.path };
    if (typeof part === 'string') {
      if (part) texts.push(textPart(part));
      return;
    }
    if (!isPlainObject(part)) {
      context.skipPart(partAt, 'is not a content part');
      return;
    }
    if (typeof part.text === 'string') {
      if (part.thought === true) thoughts.push(part.text);
      else if (part.text) texts.push(textPart(part.text));
    } else if (isPlainObject(part.functionResponse)) responses.push(part.functionResponse);
    else if (isPlainObject(part.inlineData) && typeof part.inlineData.data === 'string') {
      const mimeType =
        typeof part.inlineData.mimeType === 'string' ? part.inlineData.mimeType : 'application/octet-stream';
      images.push(imagePart(`data:${mimeType};base64,${part.inlineData.data}`));
    } else if (isPlainObject(part.fileData) && typeof part.fileData.fileUri === 'string') {
      images.push(imagePart(part.fileData.fileUri));
    } else if (!isPlainObject(part.functionCall)) {
      context.skipPart(
        partAt,
        `has a part Context Lab does not read (${Object.keys(part).join(', ') || 'empty'}); dropped`,
      );
    }
  });
  return { texts, images, thoughts, responses };
}

/** Gemini CLI's recorded thoughts `{subject, description}` as reasoning text. */
function thoughtSummaries(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((thought: unknown) => {
    if (!isPlainObject(thought)) return [];
    const subject = typeof thought.subject === 'string' ? thought.subject.trim() : '';
    const description = typeof thought.description === 'string' ? thought.description.trim() : '';
    const text = subject && description ? `${subject}: ${description}` : subject || description;
    return text ? [text] : [];
  });
}
