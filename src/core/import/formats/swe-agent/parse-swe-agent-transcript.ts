import type { Message } from '../../../transcript/message.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { isPlainObject, safeParseJson } from '../../../shared/safe-parse-json.ts';
import type { ImportContext } from '../../import-context.ts';
import { childPath, type SourceLocation } from '../../import-warning.ts';
import type { DocumentProblem } from '../../json-document-converter.ts';
import { normalizeChatContent, normalizeToolCalls } from '../../normalize-chat-message.ts';
import { stringifyJsonValue } from '../../stringify-json-value.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

const HISTORY_ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Reads an SWE-agent trajectory (`<instance_id>.traj`). Its `history` is the message list the
 * agent sent the model, converted as SWE-agent's own `_history_to_messages` does: a `tool`
 * item answers `tool_call_ids[0]`, `tool_calls` are kept, and the bookkeeping fields
 * (`agent`, `message_type`, `thought`, `action`) are not part of the message. A file without
 * `history` (only `trajectory` steps) is read step by step: the model's response, its action
 * as a call (named by the command's first word) and the observation as that call's result.
 *
 * @see https://swe-agent.com/latest/usage/trajectories/
 */
export function sweAgentDocumentToDraft(
  value: unknown,
  context: ImportContext,
): Result<TranscriptDraft, DocumentProblem> {
  if (!isPlainObject(value)) return err({ path: '$', problem: 'is not a trajectory object' });
  const draft = createTranscriptDraft('swe-agent');
  const model = modelName(value.replay_config);
  if (model) draft.metadata.model = model;
  if (Array.isArray(value.history)) readHistory(value.history, draft, context);
  else if (Array.isArray(value.trajectory)) readSteps(value.trajectory, draft, context);
  else return err({ path: '$.history', problem: 'is missing, and so is "trajectory"' });
  if (isPlainObject(value.info) && typeof value.info.exit_status === 'string') {
    context.note(
      { path: '$.info.exit_status' },
      `the run ended with exit status "${value.info.exit_status}"`,
    );
  }
  return ok(draft);
}

function readHistory(history: readonly unknown[], draft: TranscriptDraft, context: ImportContext): void {
  const agents = new Set<string>();
  history.forEach((raw: unknown, index) => {
    const at: SourceLocation = { path: childPath('$.history', index) };
    if (!isPlainObject(raw)) {
      context.skipLine(at, 'is not a history item');
      return;
    }
    const role = raw.role;
    if (typeof role !== 'string' || !HISTORY_ROLES.has(role)) {
      context.skipLine(at, `has unknown role ${JSON.stringify(role)}`);
      return;
    }
    if (typeof raw.agent === 'string') agents.add(raw.agent);
    const message: Message = { role, content: normalizeChatContent(raw.content, at, context) };
    if (role === 'tool') {
      const id: unknown = Array.isArray(raw.tool_call_ids) ? raw.tool_call_ids[0] : undefined;
      if (typeof id === 'string') message.tool_call_id = id;
    } else if (raw.tool_calls !== undefined && raw.tool_calls !== null) {
      const calls = normalizeToolCalls(raw.tool_calls, at, context, `swe_${index}`);
      if (calls.length > 0) message.tool_calls = calls;
    }
    pushDraftMessage(draft, message, at);
  });
  if (agents.size > 1)
    context.note(
      { path: '$.history' },
      `holds the turns of ${agents.size} agents (${[...agents].join(', ')})`,
    );
}

function readSteps(steps: readonly unknown[], draft: TranscriptDraft, context: ImportContext): void {
  steps.forEach((raw: unknown, index) => {
    const at: SourceLocation = { path: childPath('$.trajectory', index) };
    if (!isPlainObject(raw)) {
      context.skipLine(at, 'is not a trajectory step');
      return;
    }
    const response =
      typeof raw.response === 'string' ? raw.response : typeof raw.thought === 'string' ? raw.thought : '';
    const action = typeof raw.action === 'string' ? raw.action.trim() : '';
    if (!response && !action) {
      context.skipLine(at, 'is a step with no response and no action');
      return;
    }
    const message: Message = { role: 'assistant', content: response };
    const id = `swe_step_${index}`;
    if (action) {
      const name = action.split(/\s/, 1)[0] || 'action';
      message.tool_calls = [
        {
          id,
          type: 'function',
          function: { name, arguments: stringifyJsonValue({ command: action }) ?? '{}' },
        },
      ];
    }
    pushDraftMessage(draft, message, at);
    if (action) {
      const observation = typeof raw.observation === 'string' ? raw.observation : '';
      pushDraftMessage(draft, { role: 'tool', tool_call_id: id, content: observation }, at);
    }
  });
}

/** The model name from `replay_config` (the run's configuration, stored as JSON text or an object). */
function modelName(replayConfig: unknown): string | undefined {
  const config =
    typeof replayConfig === 'string'
      ? safeParseJson(replayConfig)
      : { ok: true as const, value: replayConfig };
  if (!config.ok || !isPlainObject(config.value)) return undefined;
  const agent = config.value.agent;
  if (!isPlainObject(agent) || !isPlainObject(agent.model)) return undefined;
  return typeof agent.model.name === 'string' ? agent.model.name : undefined;
}
