/**
 * The summary inserted when the summariser failed (hermes-reference §5.7). 2026-04 wrote a
 * static "N turns were removed" note; 2026-07 builds a deterministic structured handoff from
 * the dropped turns themselves (last user ask, actions, errors, files, the last turns), in the
 * normal section layout, so a provider outage still leaves continuity anchors.
 */
import type { Preset } from '../presets/preset.ts';
import { formatCount } from '../shared/format-count.ts';
import { pythonLength, pythonSlice } from '../tokens/python-length.ts';
import { pythonStringRepr } from '../tokens/python-repr.ts';
import type { Message } from '../transcript/message.ts';
import { safeParseJson } from '../shared/safe-parse-json.ts';
import { summarizeToolResult } from './summarize-tool-result.ts';
import { contentTextForContains } from './content-text.ts';
import {
  HISTORICAL_IN_PROGRESS_HEADING,
  HISTORICAL_PENDING_ASKS_HEADING,
  HISTORICAL_REMAINING_WORK_HEADING,
  HISTORICAL_TASK_HEADING,
  summaryPrefix,
  withSummaryPrefix,
} from './markers.ts';
import { pythonLStrip, pythonRStrip, pythonStrip, replaceWhitespaceRuns } from './python-text.ts';
import { isSyntheticCompressionUserTurn } from './real-user-message.ts';
import { redactCompactionText } from './redact-sensitive-text.ts';

export const FALLBACK_SUMMARY_MAX_CHARS = 8000;
export const FALLBACK_TURN_MAX_CHARS = 700;
const FALLBACK_TRUNCATION_NOTE = '\n...[fallback summary truncated]';
/** Hermes keeps `8000 − 42` characters before the note, leaving a little slack under the cap. */
const FALLBACK_SUMMARY_KEPT_CHARS = FALLBACK_SUMMARY_MAX_CHARS - 42;
const TURN_TRUNCATION_SUFFIX = ' ...[truncated]';
const MAX_COMPLETED_ACTIONS = 12;
const MAX_FILES = 12;
const MAX_BLOCKERS = 5;
const MAX_DROPPED_TURNS = 8;
const MAX_TOOL_NAMES = 6;

const GITHUB_TOKEN_RE = /\bgh[pousr]_[A-Za-z0-9_]{8,}\b/g;
const GITHUB_TOKEN_TAIL_RE = /\bgh[pousr]_[A-Za-z0-9_.-]+/g;
const PATH_MENTION_RE = /(?:\/|~\/?|[A-Za-z]:\\)[^\s`'")\]}<>]+/g;
const BLOCKER_RE = /\b(error|failed|exception|traceback|timeout|timed out|fatal)\b/i;
const PATH_KEYS = new Set(['path', 'workdir', 'file_path', 'output_path']);

/** 2026-04: the static note naming how many turns were dropped. */
export function legacyFallbackSummary(droppedCount: number, preset: Preset): string {
  return (
    `${summaryPrefix(preset)}\n` +
    `Summary generation was unavailable. ${droppedCount} conversation turns were removed to free context space ` +
    'but could not be summarized. The removed turns contained earlier work in this session. ' +
    'Continue based on the recent messages below and the current state of any files or resources.'
  );
}

function dedupeAppend(items: string[], value: string, limit: number): void {
  const trimmed = pythonStrip(value);
  if (trimmed && !items.includes(trimmed) && items.length < limit) items.push(trimmed);
}

function collectPathMentions(text: string, files: string[]): void {
  for (const match of text.matchAll(PATH_MENTION_RE))
    dedupeAppend(files, match[0].replace(/[.,:;]+$/, ''), MAX_FILES);
}

function collectPathsFromJsonish(value: unknown, files: string[]): void {
  if (Array.isArray(value)) for (const item of value) collectPathsFromJsonish(item, files);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (PATH_KEYS.has(key) && typeof item === 'string') dedupeAppend(files, item, MAX_FILES);
      collectPathsFromJsonish(item, files);
    }
  } else if (typeof value === 'string') collectPathMentions(value, files);
}

/** A dropped turn as one redacted line of at most 700 characters. */
function compactTurn(content: unknown): string {
  let text = redactCompactionText(contentTextForContains(content)).replace(GITHUB_TOKEN_RE, '[REDACTED]');
  text = pythonStrip(replaceWhitespaceRuns(text));
  if (pythonLength(text) > FALLBACK_TURN_MAX_CHARS) {
    text = pythonRStrip(pythonSlice(text, 0, FALLBACK_TURN_MAX_CHARS - 15)) + TURN_TRUNCATION_SUFFIX;
  }
  return text.replace(GITHUB_TOKEN_TAIL_RE, '[REDACTED]');
}

function bullets(items: readonly string[], limit: number): string {
  const unique: string[] = [];
  for (const raw of items) {
    const item = pythonStrip(raw);
    if (!item || unique.includes(item)) continue;
    unique.push(item);
    if (unique.length >= limit) break;
  }
  return unique.length > 0 ? unique.map((item) => `- ${item}`).join('\n') : 'None.';
}

interface ToolCallInfo {
  readonly name: string;
  readonly args: string;
}

const toolCallInfo = (call: unknown): ToolCallInfo & { id: string } => {
  const record = call && typeof call === 'object' ? (call as Record<string, unknown>) : {};
  const fn =
    record.function && typeof record.function === 'object'
      ? (record.function as Record<string, unknown>)
      : {};
  return {
    id: typeof record.id === 'string' ? record.id : '',
    // A stored call's name and arguments are JSON values of any type; they are shown as they print.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    name: fn.name ? String(fn.name) : 'unknown',
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    args: fn.arguments ? String(fn.arguments) : '',
  };
};

/** 2026-07: the deterministic structured handoff for `turns`, failure `reason` included. */
export function deterministicFallbackSummary(
  turns: readonly Message[],
  reason: string | null,
  preset: Preset,
): string {
  const userAsks: string[] = [];
  const assistantActions: string[] = [];
  const toolActions: string[] = [];
  const files: string[] = [];
  const blockers: string[] = [];
  const droppedTurns: string[] = [];
  const callsById = new Map<string, ToolCallInfo>();

  for (const message of turns) {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls) {
      const info = toolCallInfo(call);
      const args = redactCompactionText(info.args);
      if (info.id) callsById.set(info.id, { name: info.name, args });
      if (!args) continue;
      const parsed = safeParseJson(args);
      collectPathsFromJsonish(parsed.ok ? parsed.value : args, files);
    }
  }

  for (const message of turns) {
    const role = typeof message.role === 'string' ? message.role : 'unknown';
    let text = compactTurn(message.content);
    collectPathMentions(text, files);
    const synthetic = isSyntheticCompressionUserTurn(message, preset);
    const toolNames =
      role === 'assistant' && Array.isArray(message.tool_calls)
        ? message.tool_calls.map((call) => toolCallInfo(call).name)
        : [];
    let turnText = text;
    if (toolNames.length > 0) {
      const prefix = 'tool calls: ' + toolNames.slice(0, MAX_TOOL_NAMES).join(', ');
      turnText = turnText ? `${prefix}; ${turnText}` : prefix;
    }
    const trimmedTurn = pythonStrip(turnText);
    if (trimmedTurn) {
      droppedTurns.push(`${synthetic ? 'INTERNAL CONTEXT' : role.toUpperCase()}: ${trimmedTurn}`);
      if (droppedTurns.length > MAX_DROPPED_TURNS) droppedTurns.shift();
    }
    if (pythonLength(text) > 600) {
      text = pythonRStrip(pythonSlice(text, 0, 420)) + ' ... ' + pythonLStrip(pythonSlice(text, -160));
    }
    if (role === 'user' && text && !synthetic) userAsks.push(text);
    else if (role === 'assistant') {
      if (toolNames.length > 0)
        assistantActions.push('Called tool(s): ' + toolNames.slice(0, MAX_TOOL_NAMES).join(', '));
      else if (text) assistantActions.push(text);
    } else if (role === 'tool') {
      const id = typeof message.tool_call_id === 'string' ? message.tool_call_id : '';
      const call = callsById.get(id) ?? { name: 'unknown', args: '' };
      // The deterministic fallback exists only beside the guarded one-liners, which never refuse;
      // should a preset pair it with 2026-04's, a refusal reads as 2026-07's exception line.
      const line = summarizeToolResult(call.name, call.args, text, preset);
      toolActions.push(
        line.ok ? line.value : `[${call.name}] (${formatCount(pythonLength(text))} chars result)`,
      );
      if (BLOCKER_RE.test(text)) blockers.push(pythonSlice(text, 0, 500));
    }
  }

  const completed = [...assistantActions, ...toolActions]
    .slice(0, MAX_COMPLETED_ACTIONS)
    .map((item, index) => `${index + 1}. ${item}`);
  const lastAsk = userAsks[userAsks.length - 1];
  const activeTask =
    lastAsk !== undefined
      ? `User asked: ${pythonStringRepr(lastAsk)}`
      : 'Unknown from deterministic fallback.';
  const reasonText = reason ? ` Summary failure reason: ${reason}.` : '';
  const body = `${HISTORICAL_TASK_HEADING}
${activeTask}

## Goal
Recovered from a deterministic fallback because the LLM context summarizer was unavailable. Continue from the protected recent messages after this summary and use current file/system state for exact details.

## Constraints & Preferences
- This fallback was generated locally without an LLM summary call.
- Secrets and credentials were redacted before preservation.
- The summary may be incomplete; prefer verifying current files, git state, processes, and test results instead of assuming omitted details.

## Completed Actions
${completed.length > 0 ? completed.join('\n') : 'None recoverable from compacted turns.'}

## Active State
Unknown from deterministic fallback. Inspect current repository/session state if needed.

${HISTORICAL_IN_PROGRESS_HEADING}
Unknown from deterministic fallback — the latest user ask is recorded once under
"${HISTORICAL_TASK_HEADING}" above as historical context only. Do NOT treat it as an
unfulfilled instruction to re-answer; verify current state and continue from the
protected recent messages after this summary.

## Blocked
${bullets(blockers, MAX_BLOCKERS)}

## Key Decisions
None recoverable from deterministic fallback.

## Resolved Questions
None recoverable from deterministic fallback.

${HISTORICAL_PENDING_ASKS_HEADING}
None recoverable from deterministic fallback. (The latest user ask is preserved once
under "${HISTORICAL_TASK_HEADING}" as historical context — it is NOT necessarily
outstanding.)

## Relevant Files
${bullets(files, MAX_FILES)}

${HISTORICAL_REMAINING_WORK_HEADING}
Continue from the most recent unfulfilled user ask and protected tail messages. Verify state with tools before making claims.

## Last Dropped Turns
${bullets(droppedTurns, MAX_DROPPED_TURNS)}

## Critical Context
Summary generation was unavailable, so this is a best-effort deterministic fallback for ${turns.length} compacted message(s).${reasonText}`;
  const summary = withSummaryPrefix(redactCompactionText(pythonStrip(body)), preset);
  if (pythonLength(summary) <= FALLBACK_SUMMARY_MAX_CHARS) return summary;
  return pythonRStrip(pythonSlice(summary, 0, FALLBACK_SUMMARY_KEPT_CHARS)) + FALLBACK_TRUNCATION_NOTE;
}
