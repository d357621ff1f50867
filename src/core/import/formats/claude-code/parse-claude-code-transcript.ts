import type { ContentPart, Message, ToolCall } from '../../../transcript/message.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { CLAUDE_CODE_BOOKKEEPING_TYPES } from './claude-code-bookkeeping-types.ts';
import { convertAnthropicContent, type ToolResultDraft } from '../../convert-anthropic-content.ts';
import type { ImportContext } from '../../import-context.ts';
import type { SourceLocation } from '../../import-warning.ts';
import { toIsoTimestamp } from '../../iso-timestamp.ts';
import type { JsonlRecordParser } from '../../jsonl-record-parser.ts';
import { toolMessage } from '../anthropic-messages/parse-anthropic-messages-transcript.ts';
import { isPseudoUserText } from '../../../transcript/is-pseudo-user-text.ts';
import { partsToContent } from '../../parts-to-content.ts';
import { selectAbandonedRecords, type ThreadNode } from './select-active-branch.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

/** Record types that are never messages and are skipped without a warning. */
const SILENT_TYPES = new Set([
  ...CLAUDE_CODE_BOOKKEEPING_TYPES,
  'mode',
  'frame-link',
  'pr-link',
  'started',
  'result',
  'relocated',
  'bridge-session',
  'atis-latch',
]);

/** One record, already converted: only what assembly needs is kept, never the raw JSON. */
interface ClaudeRecord extends ThreadNode {
  kind: 'user' | 'assistant' | 'boundary' | 'other';
  at: SourceLocation;
  isSidechain: boolean;
  parts?: ContentPart[];
  reasoning?: string[];
  toolCalls?: ToolCall[];
  toolResults?: ToolResultDraft[];
  isCompactSummary?: boolean;
  compactMetadata?: { trigger?: string; preTokens?: number; postTokens?: number };
}

/**
 * Reads a Claude Code session (`~/.claude/projects/…/<session>.jsonl`).
 *
 * - Assistant records split over lines by content block are merged back by `message.id`;
 *   `tool_result` blocks in user records become tool messages (`toolUseResult` is not kept:
 *   it repeats the result for the UI).
 * - The active branch wins: rewinds and forks leave sibling branches, which are skipped with
 *   a warning. Records sharing a `message.id` are one API response, never a rewind: parallel
 *   calls (one record each) and their results (each the child of its own call) are all kept.
 *   Sidechain (sub-agent) records are skipped when the file has a main thread.
 * - `compact_boundary` records and `isCompactSummary` user records become compaction points;
 *   the summary is imported as the user message it was.
 * - `isMeta` records, titles and bookkeeping (`file-history-snapshot`, `progress`, …) are
 *   skipped; wrapper texts such as `<command-name>` stay as user text.
 */
export function createClaudeCodeRecordParser(context: ImportContext): JsonlRecordParser {
  const records: ClaudeRecord[] = [];
  const draft = createTranscriptDraft('claude-code');
  const { metadata } = draft;
  let conversationRecords = 0;

  const addRecord = (
    record: Record<string, unknown>,
    at: SourceLocation,
    fields: Partial<ClaudeRecord>,
  ): void => {
    const kind = fields.kind ?? 'other';
    const stored: ClaudeRecord = {
      kind,
      at,
      isSidechain: record.isSidechain === true,
      isConversation: kind === 'user' || kind === 'assistant',
      canStartBranch: false,
      ...fields,
    };
    if (typeof record.uuid === 'string') stored.uuid = record.uuid;
    if (typeof record.parentUuid === 'string') stored.parentUuid = record.parentUuid;
    if (typeof record.logicalParentUuid === 'string') stored.logicalParentUuid = record.logicalParentUuid;
    if (stored.isConversation) conversationRecords += 1;
    records.push(stored);
  };

  const readMessageRecord = (
    record: Record<string, unknown>,
    at: SourceLocation,
    type: 'user' | 'assistant',
  ): void => {
    const message = record.message;
    if (!isPlainObject(message)) {
      context.skipLine(at, `is a "${type}" record whose "message" is not an object`);
      return addRecord(record, at, {});
    }
    if (!('content' in message)) {
      context.skipLine(at, `is a "${type}" record with no message.content`);
      return addRecord(record, at, {});
    }
    const converted = convertAnthropicContent(
      message.content,
      { ...at, path: '$.message.content' },
      context,
      `toolu_${at.line ?? records.length}`,
    );
    if (record.isMeta === true && converted.toolResults.length === 0) return addRecord(record, at, {});
    if (type === 'assistant') {
      if (typeof message.model === 'string' && message.model !== '<synthetic>')
        metadata.model = message.model;
      const hasAny =
        converted.parts.length +
          converted.reasoning.length +
          converted.toolCalls.length +
          converted.toolResults.length >
        0;
      if (!hasAny) {
        context.skipLine(at, 'is an assistant record with nothing readable');
        return addRecord(record, at, {});
      }
      return addRecord(record, at, {
        kind: 'assistant',
        ...(typeof message.id === 'string' ? { responseId: message.id } : {}),
        parts: converted.parts,
        reasoning: converted.reasoning,
        toolCalls: converted.toolCalls,
        toolResults: converted.toolResults,
        canStartBranch: true,
      });
    }
    if (converted.parts.length === 0 && converted.toolResults.length === 0) {
      context.skipLine(at, 'is a user record with nothing readable');
      return addRecord(record, at, {});
    }
    addRecord(record, at, {
      kind: 'user',
      parts: converted.parts,
      toolResults: converted.toolResults,
      isCompactSummary: record.isCompactSummary === true || record.type === 'summary',
      // Only a typed prompt starts a branch; an interrupt notice or a command echo never does.
      canStartBranch: converted.parts.length > 0 && !isPseudoUserText(partsText(converted.parts)),
    });
  };

  return {
    get messageCount() {
      return conversationRecords;
    },
    acceptRecord(record, at) {
      readSessionFields(record);
      const type = record.type;
      if (type === 'user' || type === 'assistant') readMessageRecord(record, at, type);
      else if (type === 'system' && record.subtype === 'compact_boundary') {
        addRecord(record, at, {
          kind: 'boundary',
          compactMetadata: readCompactMetadata(record.compactMetadata),
        });
      } else if (type === 'summary' && isPlainObject(record.message)) readMessageRecord(record, at, 'user');
      else if (type === 'summary') {
        if (typeof record.summary === 'string') metadata.title = record.summary;
      } else if (typeof type !== 'string') {
        context.skipLine(at, 'has no "type"');
      } else {
        if (type !== 'system' && !SILENT_TYPES.has(type))
          context.skipLine(at, `has unknown record type ${JSON.stringify(type)}`);
        addRecord(record, at, {});
      }
    },
    finish() {
      assemble(selectRecords(records, context), draft);
      return draft;
    },
  };

  function readSessionFields(record: Record<string, unknown>): void {
    if (typeof record.sessionId === 'string') metadata.sourceSessionId ??= record.sessionId;
    if (typeof record.cwd === 'string') metadata.cwd ??= record.cwd;
    const timestamp = toIsoTimestamp(record.timestamp);
    if (timestamp) {
      if (!metadata.startedAt || timestamp < metadata.startedAt) metadata.startedAt = timestamp;
      if (!metadata.endedAt || timestamp > metadata.endedAt) metadata.endedAt = timestamp;
    }
  }
}

/** Main thread only when there is one; the active branch only. In file order. */
function selectRecords(records: readonly ClaudeRecord[], context: ImportContext): ClaudeRecord[] {
  const hasMainThread = records.some((record) => record.isConversation && !record.isSidechain);
  const sidechain = hasMainThread
    ? records.filter((record) => record.isConversation && record.isSidechain)
    : [];
  if (sidechain.length > 0) {
    context.note(
      { line: sidechain[0]!.at.line },
      `starts ${sidechain.length} sidechain (sub-agent) records; skipped`,
    );
  }
  let leafIndex = -1;
  records.forEach((record, index) => {
    if (record.isConversation && (!hasMainThread || !record.isSidechain)) leafIndex = index;
  });
  const abandoned = leafIndex === -1 ? new Set<number>() : selectAbandonedRecords(records, leafIndex);
  const abandonedConversation = [...abandoned]
    .filter((index) => records[index]!.isConversation)
    .sort((a, b) => a - b);
  if (abandonedConversation.length > 0) {
    const lines = abandonedConversation
      .map((index) => records[index]!.at.line)
      .filter((line) => line !== undefined);
    context.note(
      lines.length > 0 ? { line: lines[0] } : {},
      `starts ${abandonedConversation.length} records on branches left by a rewind or fork (lines ${lines.join(', ')}); skipped`,
    );
  }
  return records.filter(
    (record, index) =>
      !abandoned.has(index) &&
      (record.kind === 'boundary' || record.isConversation) &&
      (!hasMainThread || !record.isSidechain),
  );
}

function assemble(records: readonly ClaudeRecord[], draft: TranscriptDraft): void {
  const points = draft.metadata.compactionPoints;
  let open: { message: Message; parts: ContentPart[]; responseId: string } | undefined;
  for (const record of records) {
    const line = record.at.line !== undefined ? { line: record.at.line } : {};
    if (record.kind === 'boundary') {
      open = undefined;
      points.push({
        messageIndex: draft.messages.length,
        kind: 'claude-compact-boundary',
        ...line,
        ...record.compactMetadata,
      });
      continue;
    }
    if (record.kind === 'user') {
      for (const result of record.toolResults ?? []) pushDraftMessage(draft, toolMessage(result), result.at);
      const parts = record.parts ?? [];
      if (parts.length === 0) continue;
      open = undefined;
      const message: Message = { role: 'user', content: partsToContent(parts) };
      const index = pushDraftMessage(draft, message, record.at);
      if (record.isCompactSummary) {
        const summary = parts.flatMap((part) =>
          part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
        );
        points.push({
          messageIndex: index,
          kind: 'claude-compact-summary',
          ...line,
          summary: summary.join('\n'),
        });
      }
      continue;
    }
    const parts = record.parts ?? [];
    if (open && record.responseId && open.responseId === record.responseId) {
      open.parts.push(...parts);
      open.message.content = partsToContent(open.parts);
      mergeReasoning(open.message, record.reasoning ?? []);
      if (record.toolCalls?.length)
        open.message.tool_calls = [...(open.message.tool_calls ?? []), ...record.toolCalls];
    } else {
      const message: Message = { role: 'assistant', content: partsToContent(parts) };
      mergeReasoning(message, record.reasoning ?? []);
      if (record.toolCalls?.length) message.tool_calls = [...record.toolCalls];
      pushDraftMessage(draft, message, record.at);
      open = record.responseId ? { message, parts: [...parts], responseId: record.responseId } : undefined;
    }
    for (const result of record.toolResults ?? []) pushDraftMessage(draft, toolMessage(result), result.at);
  }
}

function mergeReasoning(message: Message, reasoning: readonly string[]): void {
  if (reasoning.length === 0) return;
  const joined = reasoning.join('\n\n');
  message.reasoning =
    typeof message.reasoning === 'string' && message.reasoning ? `${message.reasoning}\n\n${joined}` : joined;
}

function readCompactMetadata(value: unknown): ClaudeRecord['compactMetadata'] {
  if (!isPlainObject(value)) return {};
  return {
    ...(typeof value.trigger === 'string' ? { trigger: value.trigger } : {}),
    ...(typeof value.preTokens === 'number' ? { preTokens: value.preTokens } : {}),
    ...(typeof value.postTokens === 'number' ? { postTokens: value.postTokens } : {}),
  };
}

function partsText(parts: readonly ContentPart[]): string {
  return parts
    .flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('\n');
}
