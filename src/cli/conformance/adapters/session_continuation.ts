import { getCompressionTip } from '../../../core/sessions/get-compression-tip.ts';
import { getNextTitleInLineage } from '../../../core/sessions/get-next-title-in-lineage.ts';
import { resolveResumeSessionId } from '../../../core/sessions/resolve-resume-session-id.ts';
import type { SessionRecord } from '../../../core/sessions/session-record.ts';
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
  /** Title-lineage form: the title to continue and the titles already taken. */
  title?: string;
  existing_titles?: string[];
}

export const adapter: VectorAdapter = {
  inputKeys: (testCase) =>
    'title' in (testCase.input as object) ? ['title', 'existing_titles'] : ['sessions', 'messages'],
  run(testCase, preset) {
    const input = testCase.input as ContinuationInput;
    if (typeof input.title === 'string' && !Array.isArray(input.sessions)) {
      return getNextTitleInLineage(input.title, input.existing_titles ?? []);
    }
    const messages = input.messages ?? [];
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
