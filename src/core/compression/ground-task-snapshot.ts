/**
 * Grounding of the summary's task snapshot (2026-07, hermes-reference §5.6): the summariser may
 * compress prose, but "what was the user's last ask" is taken verbatim from the compacted
 * turns and written into `## Historical Task Snapshot`, so the model cannot invent it.
 */
import type { Preset } from '../presets/preset.ts';
import { pythonLength, pythonSlice } from '../tokens/python-length.ts';
import { pythonStringRepr } from '../tokens/python-repr.ts';
import type { Message } from '../transcript/message.ts';
import { contentTextForContains } from './content-text.ts';
import { HISTORICAL_TASK_HEADING, stripSummaryPrefix } from './markers.ts';
import { pythonRStrip, pythonStrip, replaceWhitespaceRuns } from './python-text.ts';
import { isRealUserMessage } from './real-user-message.ts';
import { redactCompactionText } from './redact-sensitive-text.ts';

export const ACTIVE_TASK_MAX_CHARS = 1400;
const TRUNCATION_SUFFIX = ' ...[truncated]';

/** The section from its heading up to the next `## ` heading or the end (multiline, lazy). */
const TASK_SECTION_RE = /^## Historical Task Snapshot\s*\n[\s\S]*?(?=^## |(?![\s\S]))/m;

/** The newest real user message in `turns`, redacted and whitespace-collapsed, or null. */
export function latestUserAsk(turns: readonly Message[], preset: Preset): string | null {
  for (let index = turns.length - 1; index >= 0; index--) {
    const message = turns[index]!;
    if (!isRealUserMessage(message, preset)) continue;
    let text = redactCompactionText(pythonStrip(contentTextForContains(message.content)));
    if (!text) continue;
    text = replaceWhitespaceRuns(text);
    if (pythonLength(text) > ACTIVE_TASK_MAX_CHARS) {
      text =
        pythonRStrip(pythonSlice(text, 0, ACTIVE_TASK_MAX_CHARS - TRUNCATION_SUFFIX.length)) +
        TRUNCATION_SUFFIX;
    }
    return text;
  }
  return null;
}

/** The deterministic snapshot lines (without the heading), or null when no user spoke. */
export function latestUserTaskSnapshot(turns: readonly Message[], preset: Preset): string | null {
  const ask = latestUserAsk(turns, preset);
  if (ask === null) return null;
  return (
    `User asked (deterministic, from compacted turns): ${pythonStringRepr(ask)}\n` +
    'Historical only; newer protected-tail messages after this summary win.'
  );
}

/** Replaces (or prepends) the task-snapshot section of a summary body. */
export function groundHistoricalTaskSnapshot(
  summary: string,
  turns: readonly Message[],
  preset: Preset,
): string {
  const snapshot = latestUserTaskSnapshot(turns, preset);
  if (!snapshot) return summary;
  const body = stripSummaryPrefix(summary, preset);
  // Keep a blank line after the section so the next heading is not glued onto it.
  const replacement = `${HISTORICAL_TASK_HEADING}\n${snapshot}\n\n`;
  if (TASK_SECTION_RE.test(body)) return pythonStrip(body.replace(TASK_SECTION_RE, () => replacement));
  return pythonStrip(replacement + body);
}
