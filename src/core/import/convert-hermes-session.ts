import type { Message } from '../transcript/message.ts';
import type { SessionLineage, ToolSchema } from '../transcript/transcript.ts';
import { keepToolSchemas } from './keep-tool-schemas.ts';
import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import type { ImportContext } from './import-context.ts';
import { childPath, type SourceLocation } from './import-warning.ts';
import { toIsoTimestamp } from './iso-timestamp.ts';
import { normalizeChatMessage } from './normalize-chat-message.ts';

/** Hermes stores list or dict content in SQLite behind this marker (hermes-reference §11). */
const JSON_CONTENT_MARKER = '\u0000json:';

/**
 * Message-row columns that are database bookkeeping, not part of the message Hermes sends
 * (hermes-reference §11). Other columns pass through; null columns are dropped.
 */
const HERMES_ROW_BOOKKEEPING_COLUMNS: readonly string[] = [
  'id',
  'session_id',
  'timestamp',
  'token_count',
  'active',
  'compacted',
  'platform_message_id',
  'observed',
  'effect_disposition',
  'api_content',
];

/** One Hermes session, converted. */
export interface ConvertedHermesSession {
  messages: Message[];
  sources: SourceLocation[];
  systemPrompt?: string;
  lineage: SessionLineage;
  model?: string;
  startedAt?: string;
  endedAt?: string;
  title?: string;
  tools?: ToolSchema[];
  cwd?: string;
}

/**
 * Converts a Hermes session object: a `hermes sessions export` row (`mode: 'row'`, database
 * columns) or a per-session JSON snapshot (`mode: 'snapshot'`, the agent's own message dicts,
 * kept whole). Rows hidden from the live conversation (`active: 0`: rewound, or archived by
 * in-place compaction) are left out; the summary that replaced them is kept.
 */
export function convertHermesSession(
  session: Record<string, unknown>,
  at: SourceLocation,
  context: ImportContext,
  mode: 'row' | 'snapshot',
): ConvertedHermesSession {
  const sessionId =
    stringField(session, mode === 'row' ? 'id' : 'session_id') ?? stringField(session, 'id') ?? '';
  const converted: ConvertedHermesSession = {
    messages: [],
    sources: [],
    lineage: {
      sessionId,
      parentSessionId: stringField(session, 'parent_session_id') ?? null,
      endReason: stringField(session, 'end_reason') ?? null,
      title: stringField(session, 'title') ?? null,
    },
  };
  const systemPrompt = stringField(session, 'system_prompt');
  if (systemPrompt) converted.systemPrompt = systemPrompt;
  const model = stringField(session, 'model');
  if (model) converted.model = model;
  const startedAt = toIsoTimestamp(session.started_at ?? session.session_start);
  if (startedAt) converted.startedAt = startedAt;
  const endedAt = toIsoTimestamp(session.ended_at ?? session.last_updated);
  if (endedAt) converted.endedAt = endedAt;
  const title = stringField(session, 'title');
  if (title) converted.title = title;
  if (Array.isArray(session.tools))
    converted.tools = keepToolSchemas(session.tools, { ...at, path: childPath(at.path, 'tools') }, context);
  const cwd = stringField(session, 'cwd');
  if (cwd) converted.cwd = cwd;

  const rows = Array.isArray(session.messages) ? session.messages : [];
  let hiddenRows = 0;
  rows.forEach((row: unknown, index) => {
    const rowAt: SourceLocation = { ...at, path: childPath(childPath(at.path, 'messages'), index) };
    if (isPlainObject(row)) {
      if (row.role === 'session_meta') return;
      if (row.active === 0 || row.active === false) {
        hiddenRows += 1;
        return;
      }
    }
    const message = normalizeChatMessage(mode === 'row' ? decodeRow(row) : row, rowAt, context, {
      extraKeys: 'all',
      generatedIdPrefix: `call_s${sessionId || 'x'}_${index}`,
    });
    if (!message) return;
    converted.messages.push(message);
    converted.sources.push(rowAt);
  });
  if (hiddenRows > 0) {
    context.note(
      at,
      `has ${hiddenRows} inactive rows (rewound, or archived by in-place compaction); left out`,
    );
  }
  return converted;
}

/** A database row with its JSON columns decoded, as `hermes sessions export` should have written them. */
function decodeRow(row: unknown): unknown {
  if (!isPlainObject(row)) return row;
  const decoded: Record<string, unknown> = { ...row };
  for (const column of HERMES_ROW_BOOKKEEPING_COLUMNS) delete decoded[column];
  if (typeof row.content === 'string' && row.content.startsWith(JSON_CONTENT_MARKER)) {
    const parsed = safeParseJson(row.content.slice(JSON_CONTENT_MARKER.length));
    if (parsed.ok) decoded.content = parsed.value;
  }
  if (typeof row.tool_calls === 'string') {
    const parsed = safeParseJson(row.tool_calls);
    decoded.tool_calls = parsed.ok ? parsed.value : undefined;
  }
  return decoded;
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}
