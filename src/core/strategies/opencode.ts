/**
 * opencode's compaction (anomalyco/opencode `session/compaction.ts` and `overflow.ts`, facts as
 * of 2026-10 in peers.md §2.4): overflow when the context reaches the usable window (window −
 * min(20,000, max output)). First the cheap prune: walking back from the end past the last two
 * user turns, the newest 40,000 tokens of tool output stay and older outputs are cleared, but
 * only when more than 20,000 tokens would be freed. opencode summarises only on overflow, so
 * when pruning alone brings the context under the usable window nothing more happens.
 * Otherwise the recent turns (`tail_turns` 2, within `preserve_recent_tokens`) stay verbatim
 * and everything older becomes a summary in answer to a "What did we do so far?" request.
 */
import { liveLoopHooks } from './live-loop-hooks.ts';
import {
  OPENCODE_PROFILE,
  PRESERVE_RECENT,
  PRUNE,
  PRUNE_MINIMUM,
  PRUNE_PROTECT,
  RESERVED,
  TAIL_BEFORE_SUMMARY,
  TAIL_TURNS,
} from './opencode-profile.ts';
import { createCompressorState } from '../compression/compressor-state.ts';
import { contentTextForContains } from '../compression/content-text.ts';
import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import { isSummaryMessage } from '../compression/real-user-message.ts';
import type { SummaryTemplate } from '../compression/summary-template.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { formatCount } from '../shared/format-count.ts';
import { estimateMessagesTokensRough } from '../tokens/estimate-messages-tokens-rough.ts';
import { withSharedCaches } from './shared-message-caches.ts';
import type { Message } from '../transcript/message.ts';
import {
  FATE,
  optionValue,
  type CompactDeps,
  type CompactInput,
  type MessageTokens,
  type PlanInput,
  type PlanReason,
  type Strategy,
  type StrategyCompaction,
  type StrategyPlan,
  type StrategyTrigger,
  type SummarySpan,
} from './strategy.ts';
import {
  HOST_PRESET,
  gateReason,
  isUserAsk,
  leadingSystemCount,
  nothingToCompact,
  roughTokensBefore,
  summaryMessage,
  sumTokens,
  tokensFor,
} from './strategy-kit.ts';
import { writeSummary } from './write-summary.ts';
import { plural } from '../shared/plural.ts';

/** opencode's output cap when the lab's max-tokens setting is empty (`OUTPUT_TOKEN_MAX`). */
export const OPENCODE_DEFAULT_MAX_OUTPUT = 32_000;
/** `COMPACTION_BUFFER`: opencode never reserves more than this by default. */
const DEFAULT_RESERVED_CAP = 20_000;
const MIN_PRESERVE_RECENT_TOKENS = 2000;
const MAX_PRESERVE_RECENT_TOKENS = 8000;
const PRESERVE_RECENT_SHARE = 0.25;
/** opencode caps the summary call's output at 20,000 tokens. */
const SUMMARY_MAX_OUTPUT = 20_000;
/** opencode asks for no particular size; the lab targets a tenth of what is compacted, within bounds. */
const SUMMARY_SHARE = 0.1;
const SUMMARY_MIN_TOKENS = 1000;
const SUMMARY_MAX_TOKENS = 8000;
/** opencode never prunes the output of these tools (skill bodies are instructions). */
const PROTECTED_TOOLS: ReadonlySet<string> = new Set(['skill']);

/** What a cleared tool output becomes (our words for opencode's placeholder). */
export const OPENCODE_CLEARED_OUTPUT = '[Older tool output cleared to free context]';
/** The request the summary answers, as opencode asks it. */
export const OPENCODE_SUMMARY_REQUEST = 'What did we do so far?';
/** Sent after the summary when no user request is waiting, as opencode does after auto-compaction. */
export const OPENCODE_CONTINUE =
  'Go on with the next steps if there are any; if it is unclear how to proceed, stop and ask.';

const INSTRUCTIONS =
  'Write a detailed prompt that lets another agent continue the conversation above. Cover what was done, what ' +
  'is in progress, which files are involved and what comes next; the newest turns stay in the context as they ' +
  'are, so concentrate on the older part. Do not call tools; answer with the summary text only, following ' +
  'this template as closely as you can.';

const TEMPLATE: SummaryTemplate = {
  sections: [
    { heading: '## Goal', content: 'goal', guidance: 'What the user is trying to achieve.' },
    {
      heading: '## Instructions',
      content: 'constraints',
      guidance: 'Instructions from the user that still matter, and any plan or spec to keep following.',
    },
    {
      heading: '## Discoveries',
      content: 'discoveries',
      guidance: 'What was learned that the next agent should know.',
    },
    {
      heading: '## Accomplished',
      content: 'progress',
      guidance: 'What is done, what is in progress, and what is left.',
    },
    {
      heading: '## Relevant files / directories',
      content: 'files',
      guidance:
        'The files read, edited or created that matter for the task; a directory when all of it matters.',
    },
  ],
};

function reservedTokens(config: CompressionConfig): number {
  const configured = optionValue(config, RESERVED);
  if (configured > 0) return configured;
  return Math.min(DEFAULT_RESERVED_CAP, config.maxTokens ?? OPENCODE_DEFAULT_MAX_OUTPUT);
}

const usableTokens = (config: CompressionConfig): number =>
  Math.max(0, config.contextLength - reservedTokens(config));

function opencodeTrigger(config: CompressionConfig): StrategyTrigger {
  const reserved = reservedTokens(config);
  return {
    thresholdTokens: usableTokens(config),
    rule:
      `the usable window: ${formatCount(config.contextLength)} − ${formatCount(reserved)} reserved ` +
      (optionValue(config, RESERVED) > 0
        ? '(compaction.reserved)'
        : `(min(20,000, max output ${formatCount(config.maxTokens ?? OPENCODE_DEFAULT_MAX_OUTPUT)}))`),
  };
}

function preserveRecentBudget(config: CompressionConfig): number {
  const configured = optionValue(config, PRESERVE_RECENT);
  if (configured > 0) return configured;
  return Math.min(
    MAX_PRESERVE_RECENT_TOKENS,
    Math.max(MIN_PRESERVE_RECENT_TOKENS, Math.floor(usableTokens(config) * PRESERVE_RECENT_SHARE)),
  );
}

interface OpencodePrepared {
  /** A user turn starts here: a user-role message that is not an inserted summary. */
  readonly turnStart: Uint8Array;
  /** Summary messages left by an earlier compaction: pruning stops there. */
  readonly summary: Uint8Array;
  /** A tool result. */
  readonly tool: Uint8Array;
  /** Tool name per tool message ('' elsewhere). */
  readonly toolName: readonly string[];
  /** Characters of each tool message's output, for the share a clearing saves. */
  readonly outputChars: Float64Array;
  /** A tool output already cleared by an earlier prune: pruning stops there too. */
  readonly cleared: Uint8Array;
}

function prepareOpencode(messages: readonly Message[]): OpencodePrepared {
  const count = messages.length;
  const turnStart = new Uint8Array(count);
  const summary = new Uint8Array(count);
  const cleared = new Uint8Array(count);
  const tool = new Uint8Array(count);
  const outputChars = new Float64Array(count);
  const toolName: string[] = new Array<string>(count).fill('');
  const nameByCallId = new Map<string, string>();
  for (let index = 0; index < count; index++) {
    const message = messages[index]!;
    const isSummary = isSummaryMessage(message, HOST_PRESET);
    if (isSummary) summary[index] = 1;
    if (message.role === 'user' && !isSummary) turnStart[index] = 1;
    for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
      if (typeof call?.id === 'string') nameByCallId.set(call.id, call.function?.name ?? '');
    }
    if (message.role === 'tool') {
      tool[index] = 1;
      const text = contentTextForContains(message.content);
      outputChars[index] = text.length;
      if (text === OPENCODE_CLEARED_OUTPUT) cleared[index] = 1;
      const named = message.name ?? message.tool_name;
      toolName[index] =
        typeof named === 'string' && named !== ''
          ? named
          : (nameByCallId.get(message.tool_call_id ?? '') ?? '');
    }
  }
  return { turnStart, summary, tool, toolName, outputChars, cleared };
}

const preparedOf = (messages: readonly Message[], prepared: unknown): OpencodePrepared =>
  prepared && typeof prepared === 'object' && 'turnStart' in prepared
    ? (prepared as OpencodePrepared)
    : prepareOpencode(messages);

interface PruneChoice {
  /** Tool messages whose output is cleared, newest first. */
  readonly indices: readonly number[];
  /** Tokens of tool output walked over (protected and prunable). */
  readonly walkedTokens: number;
  /** Tokens the cleared outputs held. */
  readonly prunableTokens: number;
  /** Whether it frees enough to be applied. */
  readonly applied: boolean;
}

/**
 * opencode's prune walk: back from the end, nothing counted until the second-newest user turn
 * is reached; stop at an earlier summary or an output already cleared; skill output is exempt;
 * once the protected amount is passed, every further output (the one crossing the line
 * included) is a candidate; apply only above the minimum.
 */
function choosePrune(
  prepared: OpencodePrepared,
  tokens: MessageTokens,
  start: number,
  end: number,
  protect: number,
  minimum: number,
): PruneChoice {
  let turns = 0;
  let walked = 0;
  let prunable = 0;
  const indices: number[] = [];
  for (let index = end - 1; index >= start; index--) {
    if (prepared.turnStart[index]) turns++;
    if (turns < 2) continue;
    if (prepared.summary[index]) break;
    if (!prepared.tool[index]) continue;
    if (PROTECTED_TOOLS.has(prepared.toolName[index]!.toLowerCase())) continue;
    if (prepared.cleared[index]) break;
    const size = tokens.of(index);
    walked += size;
    if (walked > protect) {
      prunable += size;
      indices.push(index);
    }
  }
  return { indices, walkedTokens: walked, prunableTokens: prunable, applied: prunable > minimum };
}

/** Tokens a clearing saves, in the caller's counting: the share of the message that goes. */
function clearingSavings(prepared: OpencodePrepared, tokens: MessageTokens, index: number): number {
  const chars = prepared.outputChars[index]!;
  if (chars <= 0) return 0;
  const kept = Math.min(chars, OPENCODE_CLEARED_OUTPUT.length);
  return Math.max(0, Math.round(tokens.of(index) * ((chars - kept) / chars)));
}

/**
 * opencode's tail: the last `tailTurns` user turns, newest first, while they fit the budget;
 * the first that does not fit may be kept from a later step on (opencode splits the turn) —
 * here from an assistant message, so a tool call keeps its results. No tail when nothing fits.
 */
function chooseTail(
  messages: readonly Message[],
  prepared: OpencodePrepared,
  tokens: MessageTokens,
  start: number,
  end: number,
  tailTurns: number,
  budget: number,
): number {
  if (tailTurns <= 0) return end;
  const starts: number[] = [];
  for (let index = end - 1; index >= start && starts.length < tailTurns; index--) {
    if (prepared.turnStart[index]) starts.push(index);
  }
  let keep = end;
  let total = 0;
  let turnEnd = end;
  for (const turnStart of starts) {
    const size = sumTokens(tokens, turnStart, turnEnd);
    if (total + size <= budget) {
      total += size;
      keep = turnStart;
      turnEnd = turnStart;
      continue;
    }
    // The turn does not fit whole: keep its latest steps that do, starting at an assistant message.
    let suffix = 0;
    let split = -1;
    for (let index = turnEnd - 1; index > turnStart; index--) {
      suffix += tokens.of(index);
      if (total + suffix > budget) break;
      if (messages[index]!.role === 'assistant') split = index;
    }
    if (split >= 0) keep = split;
    break;
  }
  // Everything fitting is no tail at all for opencode: the whole history is summarised.
  return keep <= start ? end : keep;
}

type OpencodeMode = 'prune-only' | 'summarise';

interface OpencodeLayout {
  readonly mode: OpencodeMode;
  readonly headEnd: number;
  readonly tailStart: number;
  readonly fates: Uint8Array;
  readonly prune: PruneChoice;
  readonly prunedSavings: Map<number, number>;
  readonly prunedSet: ReadonlySet<number>;
  readonly summary: SummarySpan | null;
  readonly usable: number;
  readonly afterPrune: number;
  /** The last message is a user request still waiting for its answer (kept, replayed last). */
  readonly pending: boolean;
}

/** The whole decision, shared by `plan` and `compact` so both always agree. */
function layoutOpencode(
  messages: readonly Message[],
  config: CompressionConfig,
  tokens: MessageTokens,
  prepared: OpencodePrepared,
): OpencodeLayout {
  const count = messages.length;
  const systemEnd = leadingSystemCount(messages);
  const usable = usableTokens(config);
  const prune =
    optionValue(config, PRUNE) >= 1
      ? choosePrune(
          prepared,
          tokens,
          systemEnd,
          count,
          optionValue(config, PRUNE_PROTECT),
          optionValue(config, PRUNE_MINIMUM),
        )
      : { indices: [], walkedTokens: 0, prunableTokens: 0, applied: false };
  const prunedSet = new Set(prune.applied ? prune.indices : []);
  const prunedSavings = new Map<number, number>();
  let saved = 0;
  for (const index of prunedSet) {
    const savings = clearingSavings(prepared, tokens, index);
    prunedSavings.set(index, savings);
    saved += savings;
  }
  const afterPrune = tokens.request - saved;
  const fates = new Uint8Array(count);
  // opencode summarises only on overflow: a prune that ends it is the whole compaction. Below
  // the usable window (a manual /compact) it summarises as asked.
  if (prunedSet.size > 0 && tokens.request >= usable && afterPrune < usable) {
    let first = count;
    let last = -1;
    for (const index of prunedSet) {
      fates[index] = FATE.pruned;
      first = Math.min(first, index);
      last = Math.max(last, index);
    }
    return {
      mode: 'prune-only',
      headEnd: first,
      tailStart: last + 1,
      fates,
      prune,
      prunedSavings,
      prunedSet,
      summary: null,
      usable,
      afterPrune,
      pending: false,
    };
  }
  // A request still waiting for its answer is set aside and replayed after the summary, as
  // opencode does on overflow: the tail is chosen from what comes before it.
  const pending = count > systemEnd && isUserAsk(messages[count - 1]!);
  const end = pending ? count - 1 : count;
  const tailStart = chooseTail(
    messages,
    prepared,
    tokens,
    systemEnd,
    end,
    optionValue(config, TAIL_TURNS),
    preserveRecentBudget(config),
  );
  fates.fill(FATE.summarized, systemEnd, tailStart);
  for (const index of prunedSet) if (index >= tailStart) fates[index] = FATE.pruned;
  return {
    mode: 'summarise',
    headEnd: systemEnd,
    tailStart,
    fates,
    prune,
    prunedSavings: new Map([...prunedSavings].filter(([index]) => index >= tailStart)),
    prunedSet,
    summary: systemEnd < tailStart ? { start: systemEnd, end: tailStart, kind: 'middle' } : null,
    usable,
    afterPrune,
    pending,
  };
}

function summaryBudget(compactedTokens: number): number {
  return Math.max(
    SUMMARY_MIN_TOKENS,
    Math.min(SUMMARY_MAX_TOKENS, Math.round(compactedTokens * SUMMARY_SHARE)),
  );
}

function prunedOutput(
  messages: readonly Message[],
  prepared: OpencodePrepared,
  index: number,
): PrunedToolOutput {
  return {
    index,
    kind: 'one-liner',
    toolName: prepared.toolName[index] || String(messages[index]!.name ?? 'tool'),
    originalChars: prepared.outputChars[index]!,
    replacement: OPENCODE_CLEARED_OUTPUT,
  };
}

const clearOutput = (message: Message): Message => ({ ...message, content: OPENCODE_CLEARED_OUTPUT });

const outputs = (count: number): string => plural(count, 'tool output');

function describePrune(layout: OpencodeLayout, config: CompressionConfig): string {
  if (optionValue(config, PRUNE) < 1)
    return 'Pruning is off (compaction.prune), so old tool output is not cleared first.';
  const { prune } = layout;
  const protect = optionValue(config, PRUNE_PROTECT);
  const minimum = optionValue(config, PRUNE_MINIMUM);
  if (prune.indices.length === 0)
    return (
      `Prune first: past the last two user turns there are ${formatCount(prune.walkedTokens)} tokens of tool output, ` +
      `within the ${formatCount(protect)} it protects, so nothing is cleared.`
    );
  if (!prune.applied)
    return (
      `Prune first: ${outputs(prune.indices.length)} (${formatCount(prune.prunableTokens)} tokens) lie ` +
      `beyond the newest ${formatCount(protect)}, but opencode prunes only when more than ${formatCount(minimum)} would be freed.`
    );
  return (
    `Prune first: ${outputs(prune.indices.length)} older than the newest ${formatCount(protect)} tokens ` +
    `(and the last two user turns) are cleared, freeing about ${formatCount(prune.prunableTokens)} tokens.`
  );
}

function planOpencode(input: PlanInput): StrategyPlan {
  const { messages, config, state } = input;
  const tokens = tokensFor(input);
  const trigger = opencodeTrigger(config);
  const prepared = preparedOf(messages, input.prepared);
  const layout = layoutOpencode(messages, config, tokens, prepared);
  const count = messages.length;
  let reason: PlanReason = gateReason(config, state, trigger, tokens.request, input.nowMs);
  if (reason === 'ready' && layout.mode === 'summarise' && layout.summary === null)
    reason = 'no-compressible-window';
  const explanation = [describePrune(layout, config)];
  if (layout.mode === 'prune-only') {
    explanation.push(
      `That brings the context to about ${formatCount(layout.afterPrune)} tokens, under the usable ${formatCount(layout.usable)}; ` +
        'opencode summarises only on overflow, so pruning is the whole compaction.',
    );
  } else {
    const kept = count - layout.tailStart;
    const placement = optionValue(config, TAIL_BEFORE_SUMMARY) >= 1 ? 'before' : 'after';
    explanation.push(
      kept > 0
        ? `Keeps the system prompt and the last ${formatCount(kept)} messages (${formatCount(sumTokens(tokens, layout.tailStart, count))} tokens, ` +
            `up to ${formatCount(optionValue(config, TAIL_TURNS))} user turns within ${formatCount(preserveRecentBudget(config))} tokens) verbatim, ${placement} the summary.`
        : 'Keeps only the system prompt: the recent turns do not fit the preserve_recent_tokens budget, so everything is summarised.',
      `The ${formatCount(layout.tailStart - layout.headEnd)} older messages become a Goal / Instructions / Discoveries / Accomplished / ` +
        'Relevant files summary, the answer to a "What did we do so far?" request.',
    );
  }
  explanation.push(`Compaction fires at ${formatCount(trigger.thresholdTokens)} tokens, ${trigger.rule}.`);
  const compacted = layout.summary ? sumTokens(tokens, layout.summary.start, layout.summary.end) : 0;
  return {
    trigger,
    triggerTokens: tokens.request,
    triggerBasis: tokens.exact ? 'exact' : 'estimate',
    wouldCompress: reason === 'ready',
    reason,
    headEnd: layout.headEnd,
    tailStart: layout.tailStart,
    fates: layout.fates,
    pruned: [...layout.prunedSet]
      .filter((index) => layout.fates[index] === FATE.pruned)
      .sort((a, b) => a - b)
      .map((index) => prunedOutput(messages, prepared, index)),
    prunedSavings: layout.prunedSavings,
    summaries: layout.summary ? [layout.summary] : [],
    reattached: [],
    summaryTokens: layout.summary ? summaryBudget(compacted) : 0,
    explanation,
    hermes: null,
  };
}

async function compactOpencode(input: CompactInput, deps: CompactDeps): Promise<StrategyCompaction> {
  const { messages, config } = input;
  const count = messages.length;
  const tokensBefore = roughTokensBefore(input);
  const tokens = tokensFor(input);
  const prepared = preparedOf(messages, input.prepared);
  const layout = layoutOpencode(messages, config, tokens, prepared);
  const withPruning = messages.map((message, index) =>
    layout.prunedSet.has(index) ? clearOutput(message) : message,
  );
  const pruned = [...layout.prunedSet]
    .filter((index) => layout.fates[index] === FATE.pruned)
    .sort((a, b) => a - b)
    .map((index) => prunedOutput(messages, prepared, index));
  const state = createCompressorState({
    ...input.state,
    compressionCount: input.state.compressionCount + 1,
  });
  if (layout.mode === 'prune-only') {
    return {
      messages: withPruning,
      state,
      skipped: null,
      notes: [
        `Cleared ${outputs(layout.prunedSet.size)}; the context is now about ${formatCount(layout.afterPrune)} tokens, ` +
          `under the usable ${formatCount(layout.usable)}, so opencode does not summarise.`,
      ],
      fates: layout.fates,
      pruned,
      summaries: [],
      reattached: [],
      tokensBefore,
      tokensAfter: estimateMessagesTokensRough(withPruning, HOST_PRESET, input.sizeCache),
      summarizerCalls: 0,
      warning: null,
      hermes: null,
    };
  }
  if (layout.summary === null)
    return nothingToCompact(
      input,
      'Nothing but the system prompt: there is nothing to compact.',
      tokensBefore,
    );
  const span = layout.summary;
  const written = await writeSummary(
    {
      // The summariser reads the older turns as opencode sends them: already pruned.
      turns: withPruning.slice(span.start, span.end),
      preset: HOST_PRESET,
      textCache: input.summaryTextCache,
      instructions: INSTRUCTIONS,
      template: TEMPLATE,
      budgetTokens: summaryBudget(sumTokens(tokens, span.start, span.end)),
      model: config.summaryModel || null,
      maxTokens: SUMMARY_MAX_OUTPUT,
      ...(input.summaryOverrides?.[0] !== undefined ? { override: input.summaryOverrides[0] } : {}),
    },
    deps,
  );
  const head = withPruning.slice(0, layout.headEnd);
  let tail = withPruning.slice(layout.tailStart);
  // A request still waiting for its answer is replayed after the summary (opencode's overflow
  // path), so it stays the last thing the model has to answer; otherwise opencode's nudge follows.
  const pending = layout.pending ? tail[tail.length - 1]! : null;
  if (pending) tail = tail.slice(0, -1);
  const closing = pending ?? summaryMessage('user', OPENCODE_CONTINUE);
  const request = summaryMessage('user', OPENCODE_SUMMARY_REQUEST);
  const answer = summaryMessage('assistant', written.body);
  const tailFirst = optionValue(config, TAIL_BEFORE_SUMMARY) >= 1;
  const output: Message[] = tailFirst
    ? [...head, ...tail, request, answer, closing]
    : [...head, request, answer, ...tail, closing];
  const outputIndex = tailFirst ? head.length + tail.length + 1 : head.length + 1;
  const notes = [
    describePrune(layout, config),
    `Summarised ${formatCount(span.end - span.start)} older messages and kept the last ${formatCount(count - layout.tailStart)} verbatim, ` +
      `${tailFirst ? 'before' : 'after'} the summary.`,
    pending
      ? 'The waiting user request is replayed after the summary.'
      : 'A short continue message follows the summary, as opencode sends after auto-compaction.',
  ];
  if (input.focusTopic) notes.push("opencode's /compact takes no focus topic; it was not used.");
  if (written.fallback)
    notes.push(`The summariser failed (${written.error}); a deterministic digest stands in.`);
  return {
    messages: output,
    state: createCompressorState({
      ...state,
      previousSummary: written.body,
      lastSummaryError: written.error,
    }),
    skipped: null,
    notes,
    fates: layout.fates,
    pruned,
    summaries: [
      { body: written.body, outputIndex, span, prompt: written.prompt, fallback: written.fallback },
    ],
    reattached: [],
    tokensBefore,
    tokensAfter: estimateMessagesTokensRough(output, HOST_PRESET, input.sizeCache),
    summarizerCalls: written.calls,
    warning: null,
    hermes: null,
  };
}

export const OPENCODE_STRATEGY: Strategy = {
  ...OPENCODE_PROFILE,
  ...liveLoopHooks(HOST_PRESET),
  trigger: opencodeTrigger,
  prepare: (messages, _tools, shared) => withSharedCaches(prepareOpencode(messages), HOST_PRESET, shared),
  plan: planOpencode,
  compact: compactOpencode,
};
