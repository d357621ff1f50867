import { messageText, type Message } from '../transcript/message.ts';

/** A session row as `hermes sessions export` writes it (any further columns pass through). */
export interface HermesSessionRow {
  id: string;
  parent_session_id?: string | null;
  title?: string | null;
  /** Unix seconds, as Hermes stores them. */
  started_at?: number | null;
  ended_at?: number | null;
  end_reason?: string | null;
  model?: string | null;
  source?: string;
  system_prompt?: string | null;
  message_count?: number;
  [column: string]: unknown;
}

export interface HermesSessionExport {
  session: HermesSessionRow;
  messages: readonly Message[];
}

/**
 * `hermes sessions export --format jsonl`: one line per session, `{...session_row, messages}`,
 * lineage columns kept so a continuation chain can be rebuilt. The system prompt lives in the
 * row (`system_prompt`), as in Hermes' database, not in the message rows; message rows get
 * sequential ids and their `session_id`. In-process keys (`_…`) are not written.
 *
 * @see hermes-reference §12
 */
export function exportHermesSessionJsonl(sessions: readonly HermesSessionExport[]): string {
  let nextRowId = 1;
  const lines = sessions.map(({ session, messages }) => {
    let systemPrompt = session.system_prompt ?? null;
    let body = messages;
    const first = messages[0];
    if (first?.role === 'system' && (systemPrompt === null || messageText(first) === systemPrompt)) {
      systemPrompt = messageText(first);
      body = messages.slice(1);
    }
    const rows = body.map((message) => messageRow(message, session.id, nextRowId++));
    const line = {
      ...session,
      system_prompt: systemPrompt,
      message_count: session.message_count ?? rows.length,
      messages: rows,
    };
    return JSON.stringify(line);
  });
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

function messageRow(message: Message, sessionId: string, rowId: number): Record<string, unknown> {
  const row: Record<string, unknown> = { id: rowId, session_id: sessionId };
  for (const [key, value] of Object.entries(message)) {
    if (!key.startsWith('_') && value !== undefined) row[key] = value;
  }
  return row;
}
