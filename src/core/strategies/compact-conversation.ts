/**
 * The one compaction operation. The lab's replay and "save", `/compress`, the preflight, the
 * checks before and after each request, session hygiene and overflow recovery all run this,
 * in the worker, with the strategy in force: the strategy compacts, then the finishing steps
 * every compaction needs (hermes-reference §6) — pinned messages kept, a real user turn
 * guaranteed, growth refused, the boundary recorded in the state. The io layer only adds the
 * cross-tab lock and the storage transaction around it.
 */
import { markCompactionBoundary, recordCompletedCompaction } from '../compression/compression-gates.ts';
import type { CompressorState } from '../compression/compressor-state.ts';
import { guaranteeRealUserMessage } from '../loop/guarantee-real-user-message.ts';
import { hygieneInputMessages } from '../loop/hygiene-input-messages.ts';
import { formatCount } from '../shared/format-count.ts';
import {
  estimateMessagesTokensRough,
  type RoughSizeCache,
} from '../tokens/estimate-messages-tokens-rough.ts';
import { estimateRequestTokensRough } from '../tokens/estimate-request-tokens-rough.ts';
import { hasToolCalls, type Message } from '../transcript/message.ts';
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

export interface ConversationCompactionInput extends CompactInput {
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
  const prepared = messages === input.messages ? input.prepared : undefined;
  const sizeCache = input.sizeCache;
  const requestTokensBefore = estimateRequestTokensRough(
    messages,
    input.systemPrompt,
    input.tools,
    preset,
    sizeCache,
  );
  const tokensBefore = estimateMessagesTokensRough(messages, preset, sizeCache);
  const compaction = await strategy.compact(
    { ...input, messages, ...(prepared !== undefined ? { prepared } : {}) },
    deps,
  );
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
  if (input.pinned && input.pinned.size > 0) {
    const restored = restorePinned(output, messages, fates, input.pinned, compaction);
    output = restored.messages;
    notes.push(...restored.notes);
  }
  output = guaranteeRealUserMessage(output, messages, preset);

  const tokensAfter = estimateMessagesTokensRough(output, preset, sizeCache);
  if (tokensAfter >= tokensBefore) {
    // A compaction that does not shrink the context only costs a summary and a cache rewrite.
    return unchanged('would-grow', [
      `Refused: the compacted context would be ${formatCount(tokensAfter)} tokens, not fewer than the ${formatCount(tokensBefore)} it replaces.`,
    ]);
  }
  const requestTokensAfter = estimateRequestTokensRough(
    output,
    input.systemPrompt,
    input.tools,
    preset,
    sizeCache,
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

/** The assistant call and all its results around `index`, so a pin never splits a tool group. */
function toolGroupOf(messages: readonly Message[], index: number): [number, number] {
  let start = index;
  if (messages[index]!.role === 'tool') {
    while (start > 0 && messages[start]!.role === 'tool') start--;
    if (!hasToolCalls(messages[start]!)) return [index, index + 1];
  } else if (!hasToolCalls(messages[index]!)) return [index, index + 1];
  let end = start + 1;
  while (end < messages.length && messages[end]!.role === 'tool') end++;
  return [start, end];
}

/**
 * Pinned messages must survive every strategy verbatim: one the strategy summarised or dropped
 * comes back, with its tool group, right after the last summary (or at the end), and the
 * compaction says so.
 */
function restorePinned(
  output: Message[],
  input: readonly Message[],
  fates: Uint8Array,
  pinned: ReadonlySet<number>,
  compaction: StrategyCompaction,
): { messages: Message[]; notes: string[] } {
  const restore = new Set<number>();
  const notes: string[] = [];
  for (const index of [...pinned].sort((a, b) => a - b)) {
    if (index < 0 || index >= input.length) continue;
    if (fates[index] !== FATE.summarized && fates[index] !== FATE.dropped) continue;
    const [start, end] = toolGroupOf(input, index);
    for (let member = start; member < end; member++) {
      restore.add(member);
      fates[member] = FATE.kept;
    }
    notes.push(
      `Pinned message #${formatCount(index)} kept verbatim: this strategy would have ${compaction.fates[index] === FATE.dropped ? 'dropped' : 'summarised'} it.`,
    );
  }
  if (restore.size === 0) return { messages: output, notes };
  const lastSummary = compaction.summaries.reduce((last, summary) => Math.max(last, summary.outputIndex), -1);
  let at = lastSummary >= 0 ? lastSummary + 1 : output.length;
  while (at < output.length && output[at]!.role === 'tool') at++;
  const restored = [...restore].sort((a, b) => a - b).map((index) => input[index]!);
  return { messages: [...output.slice(0, at), ...restored, ...output.slice(at)], notes };
}
