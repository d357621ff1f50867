import { convertHermesSession, type ConvertedHermesSession } from '../../convert-hermes-session.ts';
import type { ImportContext } from '../../import-context.ts';
import type { SourceLocation } from '../../import-warning.ts';
import type { JsonlRecordParser } from '../../jsonl-record-parser.ts';
import { markHermesSummaries } from '../hermes-snapshot/parse-hermes-snapshot-transcript.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';
import { messageText } from '../../../transcript/message.ts';

/** Longest parent chain followed, as Hermes' own lineage walk (hermes-reference §11). */
const MAX_LINEAGE_STEPS = 100;

/**
 * Reads `hermes sessions export --format jsonl`: one session row with nested `messages` per
 * line. Sessions of one continuation chain are joined root → tip (a parent before its child,
 * otherwise file order); each later session is marked as a segment, and its handoff summary as
 * a `hermes-summary` compaction point. A child's system prompt is dropped when it repeats the
 * first one.
 */
interface ReadSession extends ConvertedHermesSession {
  at: SourceLocation;
}

export function createHermesSessionRecordParser(context: ImportContext): JsonlRecordParser {
  const sessions: ReadSession[] = [];
  let messageCount = 0;
  return {
    get messageCount() {
      return messageCount;
    },
    acceptRecord(record, at) {
      if (!Array.isArray(record.messages)) {
        context.skipLine(at, 'is not a session object with a "messages" array');
        return;
      }
      const session = convertHermesSession(record, at, context, 'row');
      messageCount += session.messages.length;
      sessions.push({ ...session, at });
    },
    finish() {
      return joinSessions(lineageOrder(sessions));
    },
  };
}

/** Parents before children; unrelated sessions keep file order. */
function lineageOrder(sessions: readonly ReadSession[]): ReadSession[] {
  const byId = new Map<string, ReadSession>();
  for (const session of sessions) if (session.lineage.sessionId) byId.set(session.lineage.sessionId, session);
  const placed = new Set<ReadSession>();
  const ordered: ReadSession[] = [];
  for (const session of sessions) {
    const chain: ReadSession[] = [];
    let current: ReadSession | undefined = session;
    for (let step = 0; current && !placed.has(current) && step < MAX_LINEAGE_STEPS; step += 1) {
      chain.push(current);
      placed.add(current);
      const parentId: string | null = current.lineage.parentSessionId;
      current = parentId ? byId.get(parentId) : undefined;
    }
    ordered.push(...chain.reverse());
  }
  return ordered;
}

function joinSessions(sessions: readonly ReadSession[]): TranscriptDraft {
  const draft = createTranscriptDraft('hermes-session-jsonl');
  const { metadata } = draft;
  const first = sessions[0];
  const tip = sessions[sessions.length - 1];
  if (first?.systemPrompt) metadata.systemPrompt = first.systemPrompt;
  if (first?.startedAt) metadata.startedAt = first.startedAt;
  if (tip) {
    if (tip.lineage.sessionId) metadata.sourceSessionId = tip.lineage.sessionId;
    if (tip.model) metadata.model = tip.model;
    if (tip.endedAt) metadata.endedAt = tip.endedAt;
    if (tip.title) metadata.title = tip.title;
    if (tip.tools) metadata.tools = tip.tools;
    if (tip.cwd) metadata.cwd = tip.cwd;
  }
  metadata.lineage = sessions.map((session) => session.lineage);
  if (sessions.length > 1) metadata.segments = [];
  const firstSystem =
    first?.systemPrompt ?? (first?.messages[0]?.role === 'system' ? messageText(first.messages[0]) : '');

  sessions.forEach((session, sessionIndex) => {
    const startIndex = draft.messages.length;
    session.messages.forEach((message, index) => {
      const repeatsSystem =
        sessionIndex > 0 && index === 0 && message.role === 'system' && messageText(message) === firstSystem;
      if (!repeatsSystem) pushDraftMessage(draft, message, session.sources[index] ?? session.at);
    });
    if (sessionIndex > 0 && session.systemPrompt && session.systemPrompt !== firstSystem) {
      draft.messages.splice(startIndex, 0, { role: 'system', content: session.systemPrompt });
      draft.sources.splice(startIndex, 0, session.at);
    }
    metadata.segments?.push({
      messageIndex: startIndex,
      ...(session.at.line !== undefined ? { line: session.at.line } : {}),
      label: `session ${session.lineage.sessionId || sessionIndex + 1}`,
      ...(session.lineage.sessionId ? { sessionId: session.lineage.sessionId } : {}),
    });
    markHermesSummaries(draft, startIndex);
  });
  return draft;
}
