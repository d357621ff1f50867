import { messageText } from '../../../transcript/message.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { convertHermesSession } from '../../convert-hermes-session.ts';
import type { ImportContext } from '../../import-context.ts';
import { isHermesSummaryMessage } from '../../is-hermes-summary-message.ts';
import type { DocumentProblem } from '../../json-document-converter.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

/**
 * Reads a Hermes per-session JSON snapshot (`~/.hermes/sessions/session_<id>.json`:
 * `{session_id, model, system_prompt, tools, messages, …}`). Its messages are Hermes' own dicts
 * and are kept with all their keys; `role:'session_meta'` bookkeeping entries are left out.
 */
export function hermesSnapshotDocumentToDraft(
  value: unknown,
  context: ImportContext,
): Result<TranscriptDraft, DocumentProblem> {
  if (!isPlainObject(value)) return err({ path: '$', problem: 'is not a session object' });
  if (!Array.isArray(value.messages)) return err({ path: '$.messages', problem: 'is missing' });
  const draft = createTranscriptDraft('hermes-snapshot');
  const session = convertHermesSession(value, { path: '$' }, context, 'snapshot');
  const { metadata } = draft;
  if (session.lineage.sessionId) metadata.sourceSessionId = session.lineage.sessionId;
  if (session.model) metadata.model = session.model;
  if (session.startedAt) metadata.startedAt = session.startedAt;
  if (session.endedAt) metadata.endedAt = session.endedAt;
  if (session.title) metadata.title = session.title;
  if (session.tools) metadata.tools = session.tools;
  const cwd = session.cwd ?? (isPlainObject(value.model_config) ? value.model_config.cwd : undefined);
  if (typeof cwd === 'string') metadata.cwd = cwd;
  if (session.systemPrompt) metadata.systemPrompt = session.systemPrompt;
  session.messages.forEach((message, index) =>
    pushDraftMessage(draft, message, session.sources[index] ?? {}),
  );
  markHermesSummaries(draft, 0);
  return ok(draft);
}

/** Adds a `hermes-summary` compaction point at every Hermes handoff summary from `fromIndex` on. */
export function markHermesSummaries(draft: TranscriptDraft, fromIndex: number): void {
  const points = draft.metadata.compactionPoints;
  for (let index = fromIndex; index < draft.messages.length; index += 1) {
    const message = draft.messages[index]!;
    if (!isHermesSummaryMessage(message)) continue;
    if (points.some((point) => point.messageIndex === index)) continue;
    const line = draft.sources[index]?.line;
    points.push({
      messageIndex: index,
      kind: 'hermes-summary',
      ...(line !== undefined ? { line } : {}),
      summary: messageText(message),
    });
  }
}
