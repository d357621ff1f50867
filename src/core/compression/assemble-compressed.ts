/**
 * Phase 4: head + summary + tail (hermes-reference §5.8). The summary's role is chosen so that
 * no two neighbours share a role; when neither role fits, the summary is merged into the first
 * tail message instead. 2026-07 also forces role `user` after a system-only head or when no
 * user turn would survive, closes every summary with the END MARKER, and flags it.
 */
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import { appendTextToContent, contentTextForContains } from './content-text.ts';
import {
  COMPRESSED_SUMMARY_METADATA_KEY,
  DB_PERSISTED_MARKER,
  LEGACY_MERGE_SEPARATOR,
  MERGED_PRIOR_CONTEXT_HEADER,
  MERGED_SUMMARY_DELIMITER,
  SUMMARY_END_MARKER,
  compressionNote,
} from './markers.ts';

export type SummaryRole = 'user' | 'assistant';

export interface AssemblyInput {
  /** The (pruned) list the boundaries were computed on. */
  readonly messages: readonly Message[];
  /** `messages[:headEnd]` is kept verbatim. */
  readonly headEnd: number;
  /** `messages[tailStart:]` is kept verbatim. */
  readonly tailStart: number;
  /** The prefixed summary (or fallback) text. */
  readonly summary: string;
  readonly preset: Preset;
}

export interface AssembledCompression {
  readonly messages: Message[];
  readonly summaryRole: SummaryRole;
  readonly mergedIntoTail: boolean;
  /** Index in `messages` of the message that carries the summary. */
  readonly summaryIndex: number;
  readonly systemNoteAdded: boolean;
}

/** A shallow copy; 2026-07 drops the session-store marker so the copy is re-persisted (#57491). */
function freshCopy(message: Message, stripsPersistenceMarker: boolean): Message {
  const copy = { ...message };
  if (stripsPersistenceMarker) delete copy[DB_PERSISTED_MARKER];
  return copy;
}

const roleOf = (message: Message | undefined): string =>
  typeof message?.role === 'string' ? message.role : 'user';

/** Appends the compaction note to a system message unless it already carries it. */
function withCompressionNote(message: Message, preset: Preset): Message | null {
  const note = compressionNote(preset);
  const existing = message.content;
  if (contentTextForContains(existing).includes(note)) return null;
  const text = typeof existing === 'string' && existing ? `\n\n${note}` : note;
  return { ...message, content: appendTextToContent(existing, text) };
}

function chooseRole(
  lastHeadRole: string,
  firstTailRole: string,
  forceUser: boolean,
): { role: SummaryRole; merge: boolean } {
  let role: SummaryRole =
    lastHeadRole === 'assistant' || lastHeadRole === 'tool' || forceUser ? 'user' : 'assistant';
  if (role !== firstTailRole) return { role, merge: false };
  const flipped: SummaryRole = role === 'user' ? 'assistant' : 'user';
  if (flipped !== lastHeadRole && !forceUser) role = flipped;
  else return { role, merge: true };
  return { role, merge: false };
}

function mergeIntoTail(message: Message, summary: string, preset: Preset): Message {
  if (preset.assembly.mergeIntoTail === 'prepend') {
    return {
      ...message,
      content: appendTextToContent(message.content, summary + LEGACY_MERGE_SEPARATOR, true),
    };
  }
  // The tail message's own content stays first, fenced off as reference, and the END MARKER
  // comes last so the model sees one unambiguous boundary.
  const suffix = `\n\n${MERGED_SUMMARY_DELIMITER}\n\n${summary}\n\n${SUMMARY_END_MARKER}`;
  const merged: Message = {
    ...message,
    content: appendTextToContent(
      appendTextToContent(message.content, suffix),
      `${MERGED_PRIOR_CONTEXT_HEADER}\n`,
      true,
    ),
    [COMPRESSED_SUMMARY_METADATA_KEY]: true,
  };
  // The sidecar holds the bytes sent before the merge; replaying it would lose the summary.
  delete merged.api_content;
  return merged;
}

/**
 * Where the summary goes between the kept head `messages[:headEnd]` and tail
 * `messages[tailStart:]`: its role, and whether neither role fits so it is merged into the first
 * tail message (then it adds no message of its own). Roles alone decide it, so a plan can tell
 * before any summary exists.
 */
export function summaryPlacement(
  messages: readonly Message[],
  headEnd: number,
  tailStart: number,
  preset: Preset,
): { role: SummaryRole; mergedIntoTail: boolean } {
  const lastHeadRole = headEnd > 0 ? roleOf(messages[headEnd - 1]) : 'user';
  const hasTail = tailStart < messages.length;
  const firstTailRole = hasTail ? roleOf(messages[tailStart]) : 'user';
  // 2026-07: the summary must be user-role when it becomes the first visible message (Anthropic
  // rejects an assistant-first request) or when no user turn would survive at all (#52160, #58753).
  const forceUser =
    preset.assembly.forcesUserRole &&
    (lastHeadRole === 'system' ||
      !(hasUserTurn(messages, 0, headEnd) || hasUserTurn(messages, tailStart, messages.length)));
  const choice = chooseRole(lastHeadRole, firstTailRole, forceUser);
  // Merging needs a tail message; without one the summary stands alone.
  return { role: choice.role, mergedIntoTail: choice.merge && hasTail };
}

function hasUserTurn(messages: readonly Message[], start: number, end: number): boolean {
  for (let index = start; index < end; index++) if (messages[index]!.role === 'user') return true;
  return false;
}

export function assembleCompressed(input: AssemblyInput): AssembledCompression {
  const { messages, headEnd, tailStart, summary, preset } = input;
  const switches = preset.assembly;
  const head: Message[] = [];
  let systemNoteAdded = false;
  for (let index = 0; index < headEnd; index++) {
    let copy = freshCopy(messages[index]!, switches.stripsPersistenceMarker);
    if (index === 0 && copy.role === 'system') {
      const noted = withCompressionNote(copy, preset);
      if (noted) {
        copy = noted;
        systemNoteAdded = true;
      }
    }
    head.push(copy);
  }
  const tail: Message[] = [];
  for (let index = tailStart; index < messages.length; index++) {
    tail.push(freshCopy(messages[index]!, switches.stripsPersistenceMarker));
  }

  const choice = summaryPlacement(messages, headEnd, tailStart, preset);
  const merge = choice.mergedIntoTail;
  const result = head;
  let summaryIndex: number;
  if (merge) {
    summaryIndex = result.length;
    tail[0] = mergeIntoTail(tail[0]!, summary, preset);
  } else {
    summaryIndex = result.length;
    result.push(standaloneSummaryMessage(summary, choice.role, preset));
  }
  for (const message of tail) result.push(message);
  return { messages: result, summaryRole: choice.role, mergedIntoTail: merge, summaryIndex, systemNoteAdded };
}

/** The summary as its own message: 2026-07 closes it with the end marker and flags it. */
export function standaloneSummaryMessage(summary: string, role: SummaryRole, preset: Preset): Message {
  return preset.assembly.standaloneSummary === 'marked'
    ? { role, content: `${summary}\n\n${SUMMARY_END_MARKER}`, [COMPRESSED_SUMMARY_METADATA_KEY]: true }
    : { role, content: summary };
}
