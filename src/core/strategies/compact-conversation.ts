/**
 * The one compaction operation. The lab's replay and "save", `/compress`, the preflight, the
 * checks before and after each request, session hygiene and overflow recovery all run this,
 * in the worker, with the strategy in force: the strategy compacts, then the finishing steps
 * every compaction needs (hermes-reference §6) — pinned messages kept, a real user turn
 * guaranteed, growth refused, the boundary recorded in the state. The io layer only adds the
 * cross-tab lock and the storage transaction around it.
 */
import { toolGroupAround } from '../transcript/tool-group-around.ts';
import { markCompactionBoundary, recordCompletedCompaction } from '../compression/compression-gates.ts';
import type { CompressorState } from '../compression/compressor-state.ts';
import { judgeCompactionGrowth } from '../compression/judge-compaction-growth.ts';
import { standaloneSummaryMessage } from '../compression/assemble-compressed.ts';
import { sanitizeToolPairs } from '../compression/sanitize-tool-pairs.ts';
import type { Preset } from '../presets/preset.ts';
import { guaranteeRealUserMessage } from '../loop/guarantee-real-user-message.ts';
import { hygieneInputMessages } from '../loop/hygiene-input-messages.ts';
import { contentTextForContains } from '../compression/content-text.ts';
import { formatCount } from '../shared/format-count.ts';
import { roughTokensFromSizes, type RoughSizeCache } from '../tokens/estimate-messages-tokens-rough.ts';
import {
  roughRequestTokensFromSizes,
  sumRoughMessageSizes,
} from '../tokens/estimate-request-tokens-rough.ts';
import { toolsChars } from '../tokens/estimate-tools-tokens-rough.ts';
import { hasToolCalls, type Message } from '../transcript/message.ts';
import { preparedCaches } from './shared-message-caches.ts';
import {
  FATE,
  type CompactDeps,
  type CompactInput,
  type CompactSkipReason,
  type Strategy,
  type StrategyCompaction,
} from './strategy.ts';

/** Why a compaction ran: the triggers of hermes-reference §4, a manual command, or a replay. */
export type CompactionReason =
  'hygiene' | 'preflight' | 'pre-api' | 'post-turn' | 'overflow' | 'manual' | 'replay';

export interface ConversationCompactionInput extends Omit<CompactInput, 'messagesTokens'> {
  readonly reason: CompactionReason;
  /** The system prompt sent beside the messages (chat keeps it apart; a transcript carries it inside). */
  readonly systemPrompt: string;
  /**
   * Rough sizes under the strategy's preset by message identity (the planner's), so the
   * before/after estimates measure only the messages the compaction wrote.
   */
  readonly sizeCache?: RoughSizeCache;
}

export interface ConversationCompaction {
  /** What the strategy returned. */
  readonly compaction: StrategyCompaction;
  /** The messages the strategy was given (hygiene drops system rows first). */
  readonly input: readonly Message[];
  /** The compacted conversation, finishing steps applied; the input when skipped. */
  readonly messages: Message[];
  readonly state: CompressorState;
  readonly skipped: CompactSkipReason | null;
  /** What happened, in words: the strategy's notes and the finishing steps'. */
  readonly notes: readonly string[];
  /** Rough message estimates (the strategy's estimator) before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Rough request estimates (system prompt + messages + tool schemas) before and after. */
  readonly requestTokensBefore: number;
  readonly requestTokensAfter: number;
  /** One fate per input message, pinned messages restored to `kept`. */
  readonly fates: Uint8Array;
}

export async function compactConversation(
  strategy: Strategy,
  input: ConversationCompactionInput,
  deps: CompactDeps,
): Promise<ConversationCompaction> {
  const preset = strategy.preset;
  const messages =
    input.reason === 'hygiene' ? hygieneInputMessages(input.messages, preset) : [...input.messages];
  // What the caller prepared (and its per-index token counts) describes its own list; it still
  // holds when hygiene kept every message as it was (only hygiene makes a list of its own).
  const sameList =
    input.reason !== 'hygiene' ||
    (messages.length === input.messages.length &&
      messages.every((message, index) => message === input.messages[index]));
  const { prepared, tokens, ...rest } = input;
  // The caches are keyed by message identity, so the planner's stay valid for any list of its
  // messages; every measurement of this compaction (the strategy's included) shares them.
  const planned = preparedCaches(prepared);
  const sizeCache = input.sizeCache ?? planned.sizeCache ?? new WeakMap();
  const summaryTextCache = input.summaryTextCache ?? planned.summaryTextCache ?? new WeakMap();
  const caches = { sizeCache, summaryTextCache };
  // One walk over the cached sizes gives both estimates before, and the strategy's own.
  const toolsCharCount = toolsChars(input.tools, preset);
  // The planner measured this very list to draw it: its sizes stand, counted once more only
  // for another list (hygiene's own, or one of another length).
  const listSizes = sameList ? planned.listSizes?.(preset) : undefined;
  const sizesBefore =
    listSizes !== undefined && listSizes.count === messages.length
      ? listSizes
      : sumRoughMessageSizes(messages, preset, sizeCache);
  const requestTokensBefore = roughRequestTokensFromSizes(
    sizesBefore,
    input.systemPrompt,
    toolsCharCount,
    preset,
  );
  const tokensBefore = roughTokensFromSizes(sizesBefore.chars, sizesBefore.images);
  const measured = { ...caches, messagesTokens: tokensBefore };
  const strategyInput = sameList
    ? {
        ...rest,
        messages,
        ...measured,
        ...(prepared !== undefined ? { prepared } : {}),
        ...(tokens ? { tokens } : {}),
      }
    : { ...rest, messages, ...measured };
  const compaction = await strategy.compact(strategyInput, deps);
  const unchanged = (skipped: CompactSkipReason, notes: readonly string[]): ConversationCompaction => ({
    compaction,
    input: messages,
    messages: [...messages],
    state: compaction.skipped === null ? input.state : compaction.state,
    skipped,
    notes,
    tokensBefore,
    tokensAfter: tokensBefore,
    requestTokensBefore,
    requestTokensAfter: requestTokensBefore,
    fates: new Uint8Array(messages.length),
  });
  if (compaction.skipped !== null) return unchanged(compaction.skipped, compaction.notes);

  const notes = [...compaction.notes];
  const fates = compaction.fates.slice();
  let output = compaction.messages;
  let pinNotes: readonly string[] = [];
  let pinsPutBack: ReadonlySet<Message> = new Set();
  if (input.pinned && input.pinned.size > 0) {
    const restored = restorePinned(output, messages, fates, input.pinned, compaction, preset);
    output = restored.messages;
    pinNotes = restored.notes;
    pinsPutBack = restored.restored;
    notes.push(...pinNotes);
  }
  // The safety net every strategy gets (Hermes' own compress() already ran it, so it changes
  // nothing there): a call left without its result, or a result without its call, never goes
  // out — a transcript that ended on an unanswered call would otherwise carry it into the middle.
  const repaired = sanitizeToolPairs(output, preset);
  output = repaired.messages;
  const { removedResults, strippedCalls, stubbedCalls } = repaired.repairs;
  if (removedResults.length + strippedCalls.length + stubbedCalls.length > 0)
    notes.push(
      `Tool pairs repaired: ${[
        removedResults.length > 0 ? `${removedResults.length} results without their call removed` : '',
        strippedCalls.length > 0 ? `${strippedCalls.length} calls without a result stripped` : '',
        stubbedCalls.length > 0 ? `${stubbedCalls.length} calls given a stub result` : '',
      ]
        .filter(Boolean)
        .join(', ')}.`,
    );
  // A pinned older ask put back is not the user's current turn: the newest ask still has to be there.
  output = guaranteeRealUserMessage(output, messages, preset, pinsPutBack);

  const sizesAfter = sumRoughMessageSizes(output, preset, sizeCache);
  const tokensAfter = roughTokensFromSizes(sizesAfter.chars, sizesAfter.images);
  let removed = 0;
  for (let i = 0; i < fates.length; i++)
    if (fates[i] === FATE.summarized || fates[i] === FATE.dropped) removed++;
  const growth = judgeCompactionGrowth(tokensBefore, tokensAfter, removed);
  if (growth.grows) {
    // A compaction that does not shrink the context only costs a summary and a cache rewrite.
    // Pins put back can be why: say which, before the refusal.
    const reason =
      removed === 0 && pinNotes.length > 0
        ? `with the pinned messages kept, nothing is left summarised or dropped, and the summary would only ` +
          `grow the context from ${formatCount(tokensBefore)} to ${formatCount(tokensAfter)} tokens`
        : growth.reason;
    return unchanged('would-grow', [...pinNotes, `Refused: ${reason}.`]);
  }
  const requestTokensAfter = roughRequestTokensFromSizes(
    sizesAfter,
    input.systemPrompt,
    toolsCharCount,
    preset,
  );
  let state = markCompactionBoundary(compaction.state, requestTokensAfter, preset);
  // The fallback streak and the one-shot verification belong to the real-usage anti-thrash rules.
  if (preset.gates.antiThrash === 'real-usage')
    state = recordCompletedCompaction(
      state,
      compaction.summaries.some((summary) => summary.fallback),
    );
  return {
    compaction,
    input: messages,
    messages: output,
    state,
    skipped: null,
    notes,
    tokensBefore,
    tokensAfter,
    requestTokensBefore,
    requestTokensAfter,
    fates,
  };
}

const sameMessage = (left: Message, right: Message): boolean =>
  left === right || JSON.stringify(left) === JSON.stringify(right);

/**
 * Where a kept message's changed copy stands in the output: a tool result by its call id, a
 * call by its first call id, any other message by its role and its opening text (a cut keeps
 * the start; a merged summary keeps the whole). -1 when there is none.
 */
function changedCopyOf(output: readonly Message[], original: Message): number {
  if (original.role === 'tool')
    return output.findIndex(
      (message) => message.role === 'tool' && message.tool_call_id === original.tool_call_id,
    );
  if (hasToolCalls(original)) {
    const id = original.tool_calls![0]!.id;
    return output.findIndex((message) => hasToolCalls(message) && message.tool_calls![0]!.id === id);
  }
  const opening = contentTextForContains(original.content).slice(0, 200);
  if (opening === '') return -1;
  return output.findIndex(
    (message) => message.role === original.role && contentTextForContains(message.content).includes(opening),
  );
}

const isRemoved = (fate: number | undefined): boolean => fate === FATE.summarized || fate === FATE.dropped;

/**
 * The call of a tool result whose call the strategy summarised or dropped (-1 for anything
 * else). Such a result is lost even when its own fate says kept: a result without its call is
 * removed before the request goes out (Hermes 2026-04's progress floor can start the tail inside
 * a tool group, leaving the call in the middle and its results in the tail).
 */
function removedCallOf(messages: readonly Message[], fates: Uint8Array, index: number): number {
  if (messages[index]!.role !== 'tool') return -1;
  let owner = index - 1;
  while (owner >= 0 && messages[owner]!.role === 'tool') owner--;
  return owner >= 0 && hasToolCalls(messages[owner]!) && isRemoved(fates[owner]) ? owner : -1;
}

/**
 * Pinned messages must survive every strategy verbatim: one the strategy shortened is put back
 * as it was where it stands; one it summarised or dropped comes back, with its tool group,
 * right after the last summary (or at the end); and the compaction says so. System messages
 * are the strategy's own to annotate and cannot be pinned.
 */
function restorePinned(
  output: Message[],
  input: readonly Message[],
  fates: Uint8Array,
  pinned: ReadonlySet<number>,
  compaction: StrategyCompaction,
  preset: Preset,
): { messages: Message[]; notes: string[]; restored: ReadonlySet<Message> } {
  const restore = new Set<number>();
  const notes: string[] = [];
  const pins = [...pinned]
    .filter((index) => index >= 0 && index < input.length && input[index]!.role !== 'system')
    .sort((a, b) => a - b);
  let result = output;
  // A kept pin the strategy changed (pruning shortened it, or Hermes merged the summary into
  // it) is put back as it was, where its copy stands; a merged summary then stands before it.
  const edits: { position: number; messages: Message[] }[] = [];
  for (const index of pins) {
    if (isRemoved(fates[index]) || removedCallOf(input, fates, index) >= 0) continue;
    const original = input[index]!;
    if (output.some((message) => sameMessage(message, original))) continue;
    const position = changedCopyOf(output, original);
    if (position < 0) continue;
    const hermes = compaction.hermes;
    const mergedSummary =
      hermes?.mergedIntoTail && compaction.summaries.some((summary) => summary.outputIndex === position)
        ? hermes.summary
        : null;
    const role = original.role === 'user' ? 'assistant' : 'user';
    edits.push({
      position,
      messages:
        mergedSummary !== null
          ? [standaloneSummaryMessage(mergedSummary, role, preset), original]
          : [original],
    });
    fates[index] = FATE.kept;
    notes.push(
      mergedSummary !== null
        ? `Pinned message #${formatCount(index)} kept whole: the summary stands before it instead of inside it.`
        : `Pinned message #${formatCount(index)} kept whole: this strategy would have shortened it.`,
    );
  }
  if (edits.length > 0) {
    result = output.slice();
    for (const edit of edits.sort((a, b) => b.position - a.position))
      result.splice(edit.position, 1, ...edit.messages);
  }
  for (const index of pins) {
    // Checked as the loop goes: a group restored for an earlier pin brings this one back too.
    const call = isRemoved(fates[index]) ? -1 : removedCallOf(input, fates, index);
    if (!isRemoved(fates[index]) && call < 0) continue;
    const [start, end] = toolGroupAround(input, index);
    for (let member = start; member < end; member++) {
      restore.add(member);
      fates[member] = FATE.kept;
    }
    const removal = (at: number) => (compaction.fates[at] === FATE.dropped ? 'dropped' : 'summarised');
    notes.push(
      call >= 0
        ? `Pinned message #${formatCount(index)} kept verbatim with its tool call #${formatCount(call)}: this strategy would have ${removal(call)} the call, and a result cannot be sent without its call.`
        : `Pinned message #${formatCount(index)} kept verbatim: this strategy would have ${removal(index)} it.`,
    );
  }
  const putBack = new Set(edits.flatMap((edit) => edit.messages));
  if (restore.size === 0) return { messages: result, notes, restored: putBack };
  const lastSummary = compaction.summaries.reduce((last, summary) => Math.max(last, summary.outputIndex), -1);
  let at = lastSummary >= 0 ? lastSummary + 1 : result.length;
  while (at < result.length && result[at]!.role === 'tool') at++;
  const restored = [...restore].sort((a, b) => a - b).map((index) => input[index]!);
  // A result the strategy left behind without its call is now a copy of a restored one.
  const restoredSet = new Set(restored);
  const elsewhere = (message: Message) => !restoredSet.has(message);
  for (const message of restored) putBack.add(message);
  return {
    messages: [...result.slice(0, at).filter(elsewhere), ...restored, ...result.slice(at).filter(elsewhere)],
    notes,
    restored: putBack,
  };
}
