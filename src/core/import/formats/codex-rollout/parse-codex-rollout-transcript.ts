import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { createResponsesItemReader, RESPONSES_MESSAGE_ROLES } from '../../create-responses-item-reader.ts';
import type { ImportContext } from '../../import-context.ts';
import type { SourceLocation } from '../../import-warning.ts';
import { toIsoTimestamp } from '../../iso-timestamp.ts';
import type { JsonlRecordParser } from '../../jsonl-record-parser.ts';
import { stringOf } from '../../read-codex-item-fields.ts';
import { createTranscriptDraft, removeDraftMessages } from '../../transcript-draft.ts';

/** Envelope types that carry nothing for the conversation. */
const IGNORED_RECORD_TYPES = new Set(['world_state', 'inter_agent_communication_metadata']);

/**
 * Reads a Codex CLI rollout (`{timestamp, type, payload}` per line, and the older bare items).
 *
 * Response items are read as Responses items (`createResponsesItemReader`). `event_msg`
 * user/agent messages are UI copies of response items: they are used only for a role the file
 * has no response-item messages of (old or trimmed rollouts), and never when one repeats them.
 * A `compacted` record becomes a compaction point and, when it has a summary, the user message
 * Codex itself puts in the new history; a `replacement_history` is not expanded (it rewrites
 * turns already in the file): the point records its size as `replacedItems` and the summary.
 */
export function createCodexRolloutRecordParser(context: ImportContext): JsonlRecordParser {
  const draft = createTranscriptDraft('codex-rollout');
  const { metadata } = draft;
  const items = createResponsesItemReader(draft, context, {
    compactionKind: 'codex-compacted',
    noteEncryptedReasoning: false,
  });
  const eventMessageIndices = new Set<number>();
  const responseMessageKeys = new Set<string>();
  const responseRoles = new Set<string>();

  const addResponseMessage = (role: string, content: unknown, at: SourceLocation): void => {
    if (!RESPONSES_MESSAGE_ROLES.has(role)) {
      context.skipLine(at, `is a message with unknown role ${JSON.stringify(role)}`);
      return;
    }
    const { text } = items.addMessage(role, content, at);
    responseRoles.add(role);
    responseMessageKeys.add(`${role}\u0000${text.trim()}`);
  };

  const addEventMessage = (role: string, text: string, at: SourceLocation): void => {
    eventMessageIndices.add(items.addStandaloneMessage(role, text, at));
  };

  const handleItem = (item: Record<string, unknown>, at: SourceLocation): void => {
    if (item.type === 'message') addResponseMessage(stringOf(item.role), item.content, at);
    else items.readItem(item, at);
  };

  const handleEnvelope = (type: string, payload: Record<string, unknown>, at: SourceLocation): void => {
    if (type === 'session_meta') readSessionMeta(payload);
    else if (type === 'turn_context') {
      if (typeof payload.model === 'string') metadata.model = payload.model;
      if (typeof payload.cwd === 'string') metadata.cwd ??= payload.cwd;
    } else if (type === 'response_item') handleItem(payload, at);
    else if (type === 'compacted') {
      const history = payload.replacement_history;
      items.addCompaction(
        'codex-compacted',
        stringOf(payload.message),
        Array.isArray(history) ? history.length : undefined,
        at,
      );
    } else if (type === 'event_msg') {
      const eventType = stringOf(payload.type);
      if (eventType === 'user_message') addEventMessage('user', stringOf(payload.message), at);
      else if (eventType === 'agent_message') addEventMessage('assistant', stringOf(payload.message), at);
      else if (eventType === 'context_compacted')
        items.addCompaction('codex-context-compacted', '', undefined, at);
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
      else if (typeof record.role === 'string')
        addResponseMessage(record.role, record.content ?? record.message, at);
      else if (typeof record.id === 'string' && metadata.sourceSessionId === undefined)
        readSessionMeta(record);
      else context.skipLine(at, 'is not a Codex rollout record (no "type")');
    },
    finish() {
      items.finish();
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
