import { getCompressionTip } from '../../../core/sessions/get-compression-tip.ts';
import { getNextTitleInLineage } from '../../../core/sessions/get-next-title-in-lineage.ts';
import { resolveResumeSessionId } from '../../../core/sessions/resolve-resume-session-id.ts';
import type { SessionRecord } from '../../../core/sessions/session-record.ts';
import { requireKnownFields, UnknownVectorFieldError } from '../require-known-fields.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface SessionInput {
  id: string;
  parent: string | null;
  started_at: number;
  ended_at: number | null;
  end_reason: string | null;
  model_config?: Record<string, unknown> | null;
  source?: string;
  title?: string | null;
}

interface ContinuationInput {
  sessions?: SessionInput[];
  messages?: Array<{ session_id: string; ts: number }>;
  /** Title-lineage form: the title to continue and the titles already stored (null = untitled). */
  title?: string;
  existing_titles?: Array<string | null>;
}

const SESSION_FIELDS = [
  'id',
  'parent',
  'started_at',
  'ended_at',
  'end_reason',
  'model_config',
  'source',
  'title',
];
const MESSAGE_FIELDS = ['session_id', 'ts'];

/** The title form names the continued title; the chain form lists sessions and their messages. */
const isTitleCase = (input: object): boolean => 'title' in input || 'existing_titles' in input;

/**
 * Two forms: the continuation chain (per session id: `get_compression_tip` and
 * `resolve_resume_session_id`) and title numbering (`get_next_title_in_lineage(title)` against
 * `existing_titles`, answering the next title).
 */
export const adapter: VectorAdapter = {
  inputKeys: (testCase) =>
    isTitleCase(testCase.input as object) ? ['title', 'existing_titles'] : ['sessions', 'messages'],
  run(testCase, preset) {
    const input = testCase.input as ContinuationInput;
    if (isTitleCase(input)) {
      if (typeof input.title !== 'string')
        throw new UnknownVectorFieldError('input.title: expected a string');
      if (!Array.isArray(input.existing_titles)) {
        throw new UnknownVectorFieldError('input.existing_titles: expected a list of titles');
      }
      return getNextTitleInLineage(input.title, input.existing_titles);
    }
    const messages = input.messages ?? [];
    messages.forEach((message, index) =>
      requireKnownFields(message, MESSAGE_FIELDS, `input.messages[${index}]`),
    );
    (input.sessions ?? []).forEach((session, index) =>
      requireKnownFields(session, SESSION_FIELDS, `input.sessions[${index}]`),
    );
    const sessions: SessionRecord[] = (input.sessions ?? []).map((session) => {
      const own = messages.filter((message) => message.session_id === session.id);
      return {
        id: session.id,
        parentSessionId: session.parent,
        startedAt: session.started_at,
        endedAt: session.ended_at,
        endReason: session.end_reason,
        title: session.title ?? null,
        source: session.source ?? 'cli',
        modelConfig: session.model_config ?? null,
        lastMessageAt: own.length === 0 ? null : Math.max(...own.map((message) => message.ts)),
        messageCount: own.length,
      };
    });
    return Object.fromEntries(
      sessions.map((session) => [
        session.id,
        {
          get_compression_tip: getCompressionTip(sessions, session.id, preset),
          resolve_resume_session_id: resolveResumeSessionId(sessions, session.id, preset),
        },
      ]),
    );
  },
};
