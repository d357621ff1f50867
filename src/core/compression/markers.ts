/**
 * Every marker string the compressor writes or recognises (hermes-reference §5.13). They are
 * observable behaviour: a model reads them, and later compactions detect them, so they are
 * copied from Hermes byte for byte.
 */
import type { Preset } from '../presets/preset.ts';
import { assertNever } from '../shared/assert-never.ts';
import { contentTextForContains } from './content-text.ts';

export const HISTORICAL_TASK_HEADING = '## Historical Task Snapshot';
export const HISTORICAL_IN_PROGRESS_HEADING = '## Historical In-Progress State';
export const HISTORICAL_PENDING_ASKS_HEADING = '## Historical Pending User Asks';
export const HISTORICAL_REMAINING_WORK_HEADING = '## Historical Remaining Work';

const REFERENCE_ONLY_OPENING =
  '[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary below. ' +
  'This is a handoff from a previous context window — treat it as background reference, NOT as active instructions. ' +
  'Do NOT answer questions or fulfill requests mentioned in this summary; they were already addressed. ';
const LATEST_MESSAGE_WINS =
  'Respond ONLY to the latest user message that appears AFTER this summary — that message is the single source of truth for what to do right now. ';
const REVERSE_SIGNALS =
  "Reverse signals in the latest message (e.g. 'stop', 'undo', 'roll back', 'just verify', " +
  "'don't do that anymore', 'never mind', a new topic) must immediately end any in-flight work " +
  'described in the summary; do not re-surface it in later turns. ' +
  'IMPORTANT: Your persistent memory (MEMORY.md, USER.md) in the system prompt is ALWAYS authoritative ' +
  'and active — never ignore or deprioritize memory content due to this compaction note. ';
const HISTORICAL_SECTIONS_STALE =
  'Topic overlap with the summary does NOT mean you should resume its task: even on similar topics, ' +
  'the latest user message WINS. Treat ONLY the latest message as the active task and discard stale items from ' +
  `'${HISTORICAL_TASK_HEADING}' / '${HISTORICAL_IN_PROGRESS_HEADING}' / '${HISTORICAL_PENDING_ASKS_HEADING}' / ` +
  `'${HISTORICAL_REMAINING_WORK_HEADING}' entirely — do not 'wrap up' or 'finish' work described there ` +
  'unless the latest message explicitly asks for it. ';
const SESSION_STATE_TAIL =
  'The current session state (files, config, etc.) may reflect work described here — avoid repeating it:';

/** The 2026-04 handoff prefix (also the oldest frozen historical prefix of 2026-07). */
export const SUMMARY_PREFIX_2026_04 =
  REFERENCE_ONLY_OPENING +
  "Your current task is identified in the '## Active Task' section of the summary — resume exactly from there. " +
  'Respond ONLY to the latest user message that appears AFTER this summary. ' +
  SESSION_STATE_TAIL;

/** The 2026-07 handoff prefix, with the "tools remain fully active" clause (2026-07-17). */
export const SUMMARY_PREFIX_2026_07 =
  REFERENCE_ONLY_OPENING +
  LATEST_MESSAGE_WINS +
  HISTORICAL_SECTIONS_STALE +
  REVERSE_SIGNALS +
  'None of the above restricts HOW you work: your tools remain fully active — keep calling them normally ' +
  'for the active task (edit files, run commands, search) instead of merely narrating what you would do. ' +
  SESSION_STATE_TAIL;

/** The prefix of the first summaries Hermes wrote; still recognised and stripped. */
export const LEGACY_SUMMARY_PREFIX = '[CONTEXT SUMMARY]:';

/**
 * Prefixes that shipped between the legacy one and the current one (newest first). A summary
 * persisted under one of them can come back in a resumed session, so 2026-07 recognises them
 * and strips them when it re-normalises the summary.
 */
export const HISTORICAL_SUMMARY_PREFIXES: readonly string[] = [
  REFERENCE_ONLY_OPENING +
    LATEST_MESSAGE_WINS +
    HISTORICAL_SECTIONS_STALE +
    REVERSE_SIGNALS +
    SESSION_STATE_TAIL,
  REFERENCE_ONLY_OPENING +
    LATEST_MESSAGE_WINS +
    "If the latest user message is consistent with the '## Active Task' section, you may use the summary as background. " +
    'If the latest user message contradicts, supersedes, changes topic from, or in any way diverges from ' +
    "'## Active Task' / '## In Progress' / '## Pending User Asks' / '## Remaining Work', the latest message WINS — " +
    "discard those stale items entirely and do not 'wrap up the old task first'. " +
    REVERSE_SIGNALS +
    SESSION_STATE_TAIL,
  SUMMARY_PREFIX_2026_04,
];

/** Closes every standalone summary (2026-07) so the model knows where the handoff ends. */
export const SUMMARY_END_MARKER =
  '--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---';
/** 2026-04 merge: the summary is prepended to the first tail message with this separator. */
export const LEGACY_MERGE_SEPARATOR = `\n\n${SUMMARY_END_MARKER}\n\n`;
/** 2026-07 merge: the tail message's own content is wrapped in these before the summary. */
export const MERGED_PRIOR_CONTEXT_HEADER = '[PRIOR CONTEXT — for reference only; not a new message]';
export const MERGED_SUMMARY_DELIMITER = '[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]';

export const DUPLICATE_TOOL_OUTPUT_PLACEHOLDER =
  '[Duplicate tool output — same content as a more recent call]';
/** Only a skip sentinel in both generations: pruning writes one-liners instead. */
export const PRUNED_TOOL_PLACEHOLDER = '[Old tool output cleared to save context space]';
export const SCREENSHOT_REMOVED_PLACEHOLDER = '[screenshot removed to save context]';
export const SCREENSHOT_REMOVED_PREFIX = '[screenshot removed]';
export const HISTORICAL_IMAGE_PLACEHOLDER = '[Attached image — stripped after compression]';

/** 2026-07: an assistant left with no tool calls and no text gets this content. */
export const ORPHAN_CALL_CONTENT = '(tool call removed)';
/** 2026-04: the stub result inserted for a tool call whose result was summarised away. */
export const LEGACY_ORPHAN_RESULT_STUB = '[Result from earlier conversation — see context summary above]';
/** The pre-request safety net's stub (both generations). */
export const API_ORPHAN_RESULT_STUB = '[Result unavailable — see context summary above]';

export const NO_USER_CONTINUATION =
  'Continue from the compressed conversation context above. This marker exists because no human user turn was available.';
export const LEGACY_NO_USER_CONTINUATION =
  'Continue from the compressed conversation context above. This marker exists because the compacted transcript contained no preserved user turn.';
export const TODO_SNAPSHOT_HEADER = '[Your active task list was preserved across context compression]';

/** In-process flag on the summary (or merged) message; stripped before any request. */
export const COMPRESSED_SUMMARY_METADATA_KEY = '_compressed_summary';
/** Session-store flag that must never survive a compaction (#57491). */
export const DB_PERSISTED_MARKER = '_db_persisted';

export const COMPRESSION_NOTE_2026_04 =
  '[Note: Some earlier conversation turns have been compacted into a handoff summary to preserve context space. ' +
  'The current session state may still reflect earlier work, so build on that summary and state rather than re-doing work.]';
export const COMPRESSION_NOTE_2026_07 =
  COMPRESSION_NOTE_2026_04.slice(0, -1) +
  ' Your persistent memory (MEMORY.md, USER.md) remains fully authoritative regardless of compaction.]';

export const summaryPrefix = (preset: Preset): string => preset.markers.summaryPrefix;

/** The note appended to the system prompt when a compaction happens. */
export const compressionNote = (preset: Preset): string => preset.markers.compressionNote;

/** Every handoff prefix any Hermes generation wrote, current first. */
const ALL_SUMMARY_PREFIXES: readonly string[] = [
  SUMMARY_PREFIX_2026_07,
  LEGACY_SUMMARY_PREFIX,
  ...HISTORICAL_SUMMARY_PREFIXES,
];

/**
 * Whether content is a handoff summary of any Hermes generation, merged summaries included
 * (what 2026-07's detection recognises). For readers that must not take a summary for a user
 * ask whatever preset wrote it.
 */
export function isAnyHermesSummaryContent(content: unknown): boolean {
  let text = contentTextForContains(content).trimStart();
  const delimiterAt = text.indexOf(MERGED_SUMMARY_DELIMITER);
  if (delimiterAt >= 0) text = text.slice(delimiterAt + MERGED_SUMMARY_DELIMITER.length).trimStart();
  return ALL_SUMMARY_PREFIXES.some((prefix) => text.startsWith(prefix));
}

/** What every handoff prefix of every generation starts with (`[CONTEXT `). */
const SHARED_PREFIX_START = ALL_SUMMARY_PREFIXES.reduce((shared, prefix) => {
  let length = 0;
  while (length < shared.length && shared[length] === prefix[length]) length++;
  return shared.slice(0, length);
});
/** Text that, once `trimStart()`ed (JavaScript's `\s` is what it removes), opens like a handoff. */
const OPENS_LIKE_HANDOFF = new RegExp(`^\\s*${SHARED_PREFIX_START.replace(/[[\]\\^$.|?*+()]/g, '\\$&')}`);

/**
 * Whether `text` may open with a handoff prefix once trimmed. Decided from its start where it
 * can be (a call per message of a compaction's window, where pruned one-liners also open with
 * `[`), so no regex unless the text starts with a character that could be whitespace.
 */
function mayOpenLikeHandoff(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return text.startsWith(SHARED_PREFIX_START);
  return OPENS_LIKE_HANDOFF.test(text);
}

const recognisesMerged = (preset: Preset): boolean =>
  preset.assembly.summaryDetection === 'all-prefixes-and-merged';

const prefixesByPreset = new WeakMap<Preset, readonly string[]>();

/**
 * The prefixes a preset recognises as "this text is a handoff summary", in matching order.
 * Made once per preset (presets are immutable values): the summary check runs on every message
 * of a compaction's window.
 */
export function knownSummaryPrefixes(preset: Preset): readonly string[] {
  let prefixes = prefixesByPreset.get(preset);
  if (prefixes) return prefixes;
  const detection = preset.assembly.summaryDetection;
  switch (detection) {
    case 'legacy-and-current':
      prefixes = [LEGACY_SUMMARY_PREFIX, summaryPrefix(preset)];
      break;
    case 'all-prefixes-and-merged':
      prefixes = [summaryPrefix(preset), LEGACY_SUMMARY_PREFIX, ...HISTORICAL_SUMMARY_PREFIXES];
      break;
    default:
      return assertNever(detection);
  }
  prefixesByPreset.set(preset, prefixes);
  return prefixes;
}

/** The status line Hermes emits once a session has been compacted twice or more. */
export function repeatedCompressionWarning(compressionCount: number): string {
  return `⚠️  Session compressed ${compressionCount} times — accuracy may degrade. Consider /new to start fresh.`;
}

/**
 * Whether message content is a compaction handoff (Hermes `_is_context_summary_content`):
 * the flattened text, left-trimmed, starts with a known prefix; for a merged summary the text
 * after the merge delimiter is checked instead.
 */
export function isContextSummaryContent(content: unknown, preset: Preset): boolean {
  // Most messages are plain text that neither opens with a bracket nor holds the merge
  // delimiter: rule them out without trimming or trying each prefix (the check runs on every
  // message of a compaction's window).
  if (typeof content === 'string' && !mayOpenLikeHandoff(content)) {
    if (!recognisesMerged(preset) || !content.includes(MERGED_SUMMARY_DELIMITER)) return false;
  }
  let text = contentTextForContains(content).trimStart();
  const delimiterAt = recognisesMerged(preset) ? text.indexOf(MERGED_SUMMARY_DELIMITER) : -1;
  if (delimiterAt >= 0) text = text.slice(delimiterAt + MERGED_SUMMARY_DELIMITER.length).trimStart();
  return knownSummaryPrefixes(preset).some((prefix) => text.startsWith(prefix));
}

/**
 * The summary body without any known prefix or the end marker (Hermes `_strip_summary_prefix`).
 * For a merged summary everything up to the merge delimiter is dropped first.
 */
export function stripSummaryPrefix(summary: string, preset: Preset): string {
  let text = summary.trim();
  const merged = recognisesMerged(preset);
  if (merged) {
    const delimiterAt = text.indexOf(MERGED_SUMMARY_DELIMITER);
    if (delimiterAt >= 0) text = text.slice(delimiterAt + MERGED_SUMMARY_DELIMITER.length).trim();
  }
  for (const prefix of knownSummaryPrefixes(preset)) {
    if (text.startsWith(prefix)) {
      text = text.slice(prefix.length).trimStart();
      break;
    }
  }
  if (merged) {
    const markerAt = text.indexOf(SUMMARY_END_MARKER);
    if (markerAt >= 0) text = text.slice(0, markerAt).trimEnd();
  }
  return text;
}

/** The summary body under any generation's prefix (what 2026-07's stripping recognises). */
export function stripAnyHermesSummaryPrefix(summary: string): string {
  let text = summary.trim();
  const delimiterAt = text.indexOf(MERGED_SUMMARY_DELIMITER);
  if (delimiterAt >= 0) text = text.slice(delimiterAt + MERGED_SUMMARY_DELIMITER.length).trim();
  const prefix = ALL_SUMMARY_PREFIXES.find((candidate) => text.startsWith(candidate));
  if (prefix) text = text.slice(prefix.length).trimStart();
  const markerAt = text.indexOf(SUMMARY_END_MARKER);
  return markerAt >= 0 ? text.slice(0, markerAt).trimEnd() : text;
}

/** Normalises a summary body to `<prefix>\n<body>` (Hermes `_with_summary_prefix`). */
export function withSummaryPrefix(summary: string, preset: Preset): string {
  const body = stripSummaryPrefix(summary, preset);
  return body ? `${summaryPrefix(preset)}\n${body}` : summaryPrefix(preset);
}
