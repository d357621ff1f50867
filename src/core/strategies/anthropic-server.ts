/**
 * Anthropic's server-side context management (Messages API `context_management.edits`, facts as
 * of 2026-10 in peers.md §2.9): the optional `clear_tool_uses_20250919` edit replaces old tool
 * results with a placeholder once the request reaches its trigger (100,000 input tokens,
 * keeping the 3 most recent tool uses), then `compact_20260112` (150,000 by default, at least
 * 50,000) drops everything before its compaction block and puts the server's summary there.
 *
 * The edits run in that order on the same request: clearing is applied to the prompt first, and
 * compaction only fires when what is left still reaches its trigger; the summary is written from
 * the cleared prompt. The server's summary (and its default prompt) is not available offline: a
 * stand-in — the offline summariser or the user's provider — writes it from a short template of
 * our own. The server compacts while answering the latest request, so the lab keeps that request
 * (the latest user turn) and the last step after it verbatim behind the summary.
 */
import { liveLoopHooks } from './live-loop-hooks.ts';
import {
  ANTHROPIC_SERVER_PROFILE,
  CLEAR_ENABLED,
  CLEAR_KEEP,
  CLEAR_TRIGGER,
  COMPACT_TRIGGER,
  MIN_COMPACT_TRIGGER,
} from './anthropic-server-profile.ts';
import { createCompressorState } from '../compression/compressor-state.ts';
import type { SummaryTemplate } from '../compression/summary-template.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { formatCount } from '../shared/format-count.ts';
import {
  estimateMessagesTokensRough,
  estimateMessageTokensRough,
} from '../tokens/estimate-messages-tokens-rough.ts';
import { hasToolCalls, type Message } from '../transcript/message.ts';
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
} from './strategy.ts';
import {
  gateReason,
  HOST_PRESET,
  isUserAsk,
  leadingSystemCount,
  nothingToCompact,
  roughTokensBefore,
  summaryMessage,
  tokensFor,
} from './strategy-kit.ts';
import { writeSummary } from './write-summary.ts';
import { plural } from '../shared/plural.ts';
import { withSharedCaches } from './shared-message-caches.ts';

/** What a cleared tool result becomes (the API's own placeholder text is not published). */
export const CLEARED_TOOL_RESULT_PLACEHOLDER =
  '[This tool result was cleared by context editing to save space. The call ran; run it again if you need its output.]';

/** Opens the summary message, standing in for the API's `compaction` content block. */
export const COMPACTION_BLOCK_HEADER =
  '[Compaction block: the conversation before this point was replaced by the summary below.]';

/** The server does not document its summary size; the lab asks for a tenth of what it replaces. */
const SUMMARY_SHARE = 0.1;
const SUMMARY_MIN_TOKENS = 1000;
const SUMMARY_MAX_TOKENS = 8000;

// The server's default prompt is opaque; this one is ours, and only its purpose is Anthropic's.
const INSTRUCTIONS =
  'Everything in the conversation below is about to be removed from your context and replaced by what you ' +
  'write now; you will carry on the same task from this summary alone. Record what you need to continue: what ' +
  'the user wants, what has been done and where things stand, the details that must stay exact (names, paths, ' +
  'values, errors), and what comes next. Be brief and concrete.';

const TEMPLATE: SummaryTemplate = {
  sections: [
    { heading: '## Task', content: 'goal', guidance: 'What the user wants, in a sentence or two.' },
    {
      heading: '## Where things stand',
      content: 'progress',
      guidance: 'What has been done so far, in order, and the current state.',
    },
    {
      heading: '## Exact details',
      content: 'critical',
      guidance: 'Names, paths, commands, values and errors that must be kept word for word.',
    },
    { heading: '## Files', content: 'files', guidance: 'Files read, created or changed.' },
    {
      heading: '## Next',
      content: 'next-step',
      guidance: 'What to do next, starting from the latest request.',
    },
  ],
};

interface ServerSettings {
  readonly compactAt: number;
  readonly clearEnabled: boolean;
  readonly clearAt: number;
  readonly keep: number;
}

function readSettings(config: CompressionConfig): ServerSettings {
  return {
    compactAt: Math.max(MIN_COMPACT_TRIGGER, optionValue(config, COMPACT_TRIGGER)),
    clearEnabled: optionValue(config, CLEAR_ENABLED) >= 1,
    clearAt: optionValue(config, CLEAR_TRIGGER),
    keep: Math.max(0, Math.trunc(optionValue(config, CLEAR_KEEP))),
  };
}

function serverTrigger(config: CompressionConfig): StrategyTrigger {
  const settings = readSettings(config);
  const first = settings.clearEnabled ? Math.min(settings.clearAt, settings.compactAt) : settings.compactAt;
  const window = config.contextLength;
  const parts = [`compact_20260112 at ${formatCount(settings.compactAt)} input tokens`];
  if (settings.clearEnabled)
    parts.push(
      `clear_tool_uses_20250919 at ${formatCount(settings.clearAt)} (keeps the ${formatCount(settings.keep)} most recent tool uses)`,
    );
  const overWindow =
    first > window
      ? ` — above the ${formatCount(window)}-token window, so a request would overflow before the server edits it`
      : '';
  return { thresholdTokens: first, rule: `${parts.join('; ')}${overWindow}` };
}

/**
 * Per transcript, independent of the settings: which tool use each tool result answers (its
 * ordinal among every tool use of the transcript, oldest first) and each result's rough size
 * once cleared.
 */
interface ServerPrepared {
  /** Per message: the ordinal of the tool use a tool result answers; −1 for other messages. */
  readonly useOrdinal: Int32Array;
  /** Tool uses in the transcript: every call, and every result no call accounts for. */
  readonly toolUses: number;
  readonly clearedTokens: Float64Array;
}

function prepareServer(messages: readonly Message[]): ServerPrepared {
  const count = messages.length;
  const useOrdinal = new Int32Array(count).fill(-1);
  const clearedTokens = new Float64Array(count);
  let next = 0;
  // The open tool group: its calls' ordinals by id and in order, and how many results it has had.
  let groupIds = new Map<string, number>();
  let groupOrdinals: number[] = [];
  let groupResults = 0;
  for (let index = 0; index < count; index++) {
    const message = messages[index]!;
    if (message.role !== 'tool') {
      groupIds = new Map();
      groupOrdinals = [];
      groupResults = 0;
      if (hasToolCalls(message)) {
        for (const call of message.tool_calls!) {
          groupOrdinals.push(next);
          if (typeof call.id === 'string' && !groupIds.has(call.id)) groupIds.set(call.id, next);
          next++;
        }
      }
      continue;
    }
    clearedTokens[index] = estimateMessageTokensRough(
      { ...message, content: CLEARED_TOOL_RESULT_PLACEHOLDER },
      HOST_PRESET,
    );
    // A result answers the call with its id, else the call in its position; a result no call
    // accounts for (an orphan) is a tool use of its own.
    const byId = message.tool_call_id !== undefined ? groupIds.get(message.tool_call_id) : undefined;
    useOrdinal[index] = byId ?? groupOrdinals[groupResults] ?? next++;
    groupResults++;
  }
  return { useOrdinal, toolUses: next, clearedTokens };
}

const isServerPrepared = (value: unknown): value is ServerPrepared =>
  typeof value === 'object' &&
  value !== null &&
  (value as Partial<ServerPrepared>).useOrdinal instanceof Int32Array &&
  (value as Partial<ServerPrepared>).clearedTokens instanceof Float64Array;

const preparedOf = (input: PlanInput | CompactInput): ServerPrepared =>
  isServerPrepared(input.prepared) && input.prepared.useOrdinal.length === input.messages.length
    ? input.prepared
    : prepareServer(input.messages);

/**
 * The tool results `clear_tool_uses` replaces: every result except those of the `keep` most
 * recent tool uses (parallel calls count one each). Results already cleared, or no longer than
 * the placeholder, are left alone: replacing them would save nothing.
 */
function toolResultsToClear(
  messages: readonly Message[],
  keep: number,
  tokens: MessageTokens,
  prepared: ServerPrepared,
): Map<number, number> {
  const firstKept = prepared.toolUses - keep;
  const cleared = new Map<number, number>();
  for (let index = 0; index < messages.length; index++) {
    const ordinal = prepared.useOrdinal[index]!;
    if (ordinal < 0 || ordinal >= firstKept) continue;
    if (messages[index]!.content === CLEARED_TOOL_RESULT_PLACEHOLDER) continue;
    const saved = tokens.of(index) - prepared.clearedTokens[index]!;
    if (saved > 0) cleared.set(index, saved);
  }
  return cleared;
}

/** Where the verbatim tail starts: the last step (the newest message and its tool group). */
function lastStepStart(messages: readonly Message[], headEnd: number): number {
  let start = messages.length;
  if (start <= headEnd) return start;
  while (start > headEnd && messages[start - 1]!.role === 'tool') start--;
  if (start < messages.length) {
    // Tool results at the end: keep them with the call they answer, or (orphans) summarise them.
    return start > headEnd && hasToolCalls(messages[start - 1]!) ? start - 1 : messages.length;
  }
  return messages.length - 1;
}

type ServerMode = 'compact' | 'clear-only' | 'clear-and-compact';

/** What the server does to this request, decided the same way by `plan` and `compact`. */
interface ServerDecision {
  readonly mode: ServerMode;
  readonly headEnd: number;
  /** The latest user ask, or −1. */
  readonly latestAsk: number;
  /** Start of the verbatim last step (messages.length when there is none). */
  readonly stepStart: number;
  readonly cleared: ReadonlyMap<number, number>;
  readonly clearedTokens: number;
  readonly fates: Uint8Array;
  /** Messages the summary stands for. */
  readonly summarized: number;
}

function decide(
  messages: readonly Message[],
  settings: ServerSettings,
  tokens: MessageTokens,
  prepared: ServerPrepared,
): ServerDecision {
  const count = messages.length;
  const headEnd = leadingSystemCount(messages);
  const clearing =
    settings.clearEnabled && tokens.request >= settings.clearAt
      ? toolResultsToClear(messages, settings.keep, tokens, prepared)
      : new Map<number, number>();
  let clearedTokens = 0;
  for (const saved of clearing.values()) clearedTokens += saved;
  // Clearing is an edit on the prompt; compaction judges what is left. Clearing that brings the
  // request under the compaction trigger is all that happens. Below every trigger, the lab shows
  // an on-demand compaction (the API's `compaction: {type: "summarize"}` request).
  const mode: ServerMode =
    clearing.size === 0
      ? 'compact'
      : tokens.request - clearedTokens >= settings.compactAt
        ? 'clear-and-compact'
        : 'clear-only';
  let latestAsk = -1;
  for (let index = count - 1; index >= headEnd; index--) {
    if (isUserAsk(messages[index]!)) {
      latestAsk = index;
      break;
    }
  }
  const fates = new Uint8Array(count);
  let summarized = 0;
  const stepStart = mode === 'clear-only' ? count : lastStepStart(messages, headEnd);
  if (mode !== 'clear-only') {
    for (let index = headEnd; index < stepStart; index++) {
      if (index === latestAsk) continue;
      fates[index] = FATE.summarized;
      summarized++;
    }
  }
  for (const index of clearing.keys()) if (fates[index] === FATE.kept) fates[index] = FATE.pruned;
  return { mode, headEnd, latestAsk, stepStart, cleared: clearing, clearedTokens, fates, summarized };
}

/** The verbatim tail of a compaction: the latest ask (when before the last step) and the last step. */
function tailStartOf(decision: ServerDecision, count: number): number {
  if (decision.mode === 'clear-only') return decision.headEnd;
  const { latestAsk, stepStart } = decision;
  return latestAsk >= 0 && latestAsk === stepStart - 1 ? latestAsk : Math.min(stepStart, count);
}

function summaryBudget(compactedTokens: number): number {
  return Math.max(
    SUMMARY_MIN_TOKENS,
    Math.min(SUMMARY_MAX_TOKENS, Math.round(compactedTokens * SUMMARY_SHARE)),
  );
}

/** Tokens of the summarised messages as the summariser sees them (cleared results shortened). */
function summarizedTokens(decision: ServerDecision, tokens: MessageTokens): number {
  let total = 0;
  for (let index = decision.headEnd; index < decision.stepStart; index++) {
    if (decision.fates[index] !== FATE.summarized) continue;
    total += tokens.of(index) - (decision.cleared.get(index) ?? 0);
  }
  return total;
}

/** What the compaction keeps after the summary, in words. */
function keptBehind(decision: ServerDecision, count: number): string {
  const { latestAsk, stepStart } = decision;
  const messages = (n: number): string => plural(n, 'message');
  if (latestAsk >= stepStart)
    return count - 1 > latestAsk
      ? `the latest user request and the ${messages(count - 1 - latestAsk)} after it`
      : 'the latest user request';
  const step = stepStart < count ? `the last step (${messages(count - stepStart)})` : '';
  if (latestAsk < 0) return `${step || 'nothing'}; there is no user request to keep`;
  return step ? `the latest user request and ${step}` : 'the latest user request';
}

const STAND_IN =
  "The server's own summary is not available offline; a stand-in (the offline summariser or your provider) writes it.";

function planServer(input: PlanInput): StrategyPlan {
  const { messages, config, state } = input;
  const tokens = tokensFor(input);
  const settings = readSettings(config);
  const trigger = serverTrigger(config);
  const count = messages.length;
  const decision = decide(messages, settings, tokens, preparedOf(input));
  let reason: PlanReason = gateReason(config, state, trigger, tokens.request, input.nowMs);
  // The first trigger was reached, but neither edit has anything to do at this size.
  if (reason === 'ready' && decision.mode === 'compact' && tokens.request < settings.compactAt)
    reason = 'below-threshold';
  if (reason === 'ready' && decision.mode !== 'clear-only' && decision.summarized === 0)
    reason = 'no-compressible-window';
  const prunedSavings = new Map<number, number>();
  for (const [index, saved] of decision.cleared)
    if (decision.fates[index] === FATE.pruned) prunedSavings.set(index, saved);
  const compacts = decision.mode !== 'clear-only' && decision.summarized > 0;
  const explanation: string[] = [];
  if (decision.cleared.size > 0)
    explanation.push(
      `clear_tool_uses_20250919 runs first (the request's ${formatCount(tokens.request)} tokens reach its ${formatCount(settings.clearAt)}-token trigger): ` +
        `${formatCount(decision.cleared.size)} old tool ${decision.cleared.size === 1 ? 'result becomes' : 'results become'} a placeholder, ` +
        `keeping the ${formatCount(settings.keep)} most recent tool uses and saving about ${formatCount(decision.clearedTokens)} tokens.`,
    );
  if (decision.mode === 'clear-only') {
    explanation.push(
      `That brings the request to about ${formatCount(tokens.request - decision.clearedTokens)} tokens, under the ${formatCount(settings.compactAt)}-token compaction trigger, so compact_20260112 does not fire and nothing is summarised.`,
    );
  } else {
    const when =
      tokens.request >= settings.compactAt
        ? `At ${formatCount(settings.compactAt)} input tokens compact_20260112`
        : `This request (${formatCount(tokens.request)} tokens) is under the ${formatCount(settings.compactAt)}-token trigger${settings.compactAt > config.contextLength ? `, which is above the ${formatCount(config.contextLength)}-token window` : ''}; an on-demand compaction`;
    explanation.push(
      `${when} drops everything before its compaction block and puts a summary there: ${formatCount(decision.summarized)} ${decision.summarized === 1 ? 'message' : 'messages'} ` +
        `(${formatCount(summarizedTokens(decision, tokens))} tokens) would be summarised. ${STAND_IN}`,
      'The server compacts while answering the latest request, so the lab keeps that request and the last step after it verbatim behind the summary.',
    );
  }
  return {
    trigger,
    triggerTokens: tokens.request,
    triggerBasis: tokens.exact ? 'exact' : 'estimate',
    wouldCompress: reason === 'ready',
    reason,
    headEnd: decision.headEnd,
    tailStart: tailStartOf(decision, count),
    fates: decision.fates,
    pruned: [],
    prunedSavings,
    summaries: compacts ? [{ start: decision.headEnd, end: decision.stepStart, kind: 'middle' }] : [],
    reattached: [],
    summaryTokens: compacts ? summaryBudget(summarizedTokens(decision, tokens)) : 0,
    explanation,
    hermes: null,
  };
}

const cleared = (message: Message): Message => ({ ...message, content: CLEARED_TOOL_RESULT_PLACEHOLDER });

async function compactServer(input: CompactInput, deps: CompactDeps): Promise<StrategyCompaction> {
  const { messages, config } = input;
  const count = messages.length;
  const tokensBefore = roughTokensBefore(input);
  const tokens = tokensFor(input);
  const settings = readSettings(config);
  const decision = decide(messages, settings, tokens, preparedOf(input));
  // With nothing to clear (clearing is off unless enabled), the messages stand as they are: no
  // pass over 10,000 of them to copy the list.
  const edited: readonly Message[] =
    decision.cleared.size === 0
      ? messages
      : messages.map((message, index) => (decision.cleared.has(index) ? cleared(message) : message));
  const base = {
    pruned: [],
    reattached: [],
    tokensBefore,
    warning: null,
    hermes: null,
  } as const;
  const clearNote =
    decision.cleared.size > 0
      ? `clear_tool_uses_20250919 replaced ${formatCount(decision.cleared.size)} old tool ${decision.cleared.size === 1 ? 'result' : 'results'} with a placeholder (about ${formatCount(decision.clearedTokens)} tokens), keeping the ${formatCount(settings.keep)} most recent tool uses.`
      : null;

  if (decision.mode === 'clear-only') {
    return {
      ...base,
      messages: [...edited],
      state: createCompressorState({ ...input.state, compressionCount: input.state.compressionCount + 1 }),
      skipped: null,
      notes: [
        clearNote!,
        `That brought the request under the ${formatCount(settings.compactAt)}-token compaction trigger, so compact_20260112 did not fire and nothing was summarised.`,
      ],
      fates: decision.fates,
      summaries: [],
      tokensAfter: estimateMessagesTokensRough(edited, HOST_PRESET, input.sizeCache),
      summarizerCalls: 0,
    };
  }
  if (decision.summarized === 0) {
    return nothingToCompact(
      input,
      'Only the latest request and the step after it are left: there is nothing before them to compact.',
      tokensBefore,
    );
  }

  // The summary is written from the prompt as the server sees it: cleared results included.
  const written = await writeSummary(
    {
      turns: edited.slice(decision.headEnd, decision.stepStart),
      preset: HOST_PRESET,
      textCache: input.summaryTextCache,
      instructions: INSTRUCTIONS,
      template: TEMPLATE,
      budgetTokens: summaryBudget(summarizedTokens(decision, tokens)),
      focusTopic: input.focusTopic ?? null,
      model: config.summaryModel || null,
      ...(input.summaryOverrides?.[0] !== undefined ? { override: input.summaryOverrides[0] } : {}),
    },
    deps,
  );
  const keepAsk = decision.latestAsk >= 0 && decision.latestAsk < decision.stepStart;
  const summaryAt = decision.headEnd;
  // An assistant message, as the API's compaction block is assistant content. The latest user
  // turn follows it, so every provider sees a user turn after the summary.
  const output: Message[] = [
    ...edited.slice(0, decision.headEnd),
    summaryMessage('assistant', `${COMPACTION_BLOCK_HEADER}\n\n${written.body}`),
    ...(keepAsk ? [edited[decision.latestAsk]!] : []),
    ...edited.slice(decision.stepStart),
  ];
  const notes = [
    ...(clearNote ? [clearNote] : []),
    `compact_20260112 replaced ${formatCount(decision.summarized)} ${decision.summarized === 1 ? 'message' : 'messages'} before the compaction block with a summary. ${STAND_IN}`,
    `Kept verbatim behind the summary, because the server compacts while answering the latest request: ${keptBehind(decision, count)}.`,
  ];
  if (input.focusTopic)
    notes.push(
      "The focus topic was added to the stand-in's prompt (the API's `instructions` would replace its default prompt instead).",
    );
  if (written.fallback)
    notes.push(`The summariser failed (${written.error}); a deterministic digest stands in.`);
  return {
    ...base,
    messages: output,
    state: createCompressorState({
      ...input.state,
      compressionCount: input.state.compressionCount + 1,
      previousSummary: written.body,
      lastSummaryError: written.error,
    }),
    skipped: null,
    notes,
    fates: decision.fates,
    summaries: [
      {
        body: written.body,
        outputIndex: summaryAt,
        span: { start: decision.headEnd, end: decision.stepStart, kind: 'middle' },
        prompt: written.prompt,
        fallback: written.fallback,
      },
    ],
    tokensAfter: estimateMessagesTokensRough(output, HOST_PRESET, input.sizeCache),
    summarizerCalls: written.calls,
  };
}

export const ANTHROPIC_SERVER_STRATEGY: Strategy = {
  ...ANTHROPIC_SERVER_PROFILE,
  ...liveLoopHooks(HOST_PRESET),
  trigger: serverTrigger,
  prepare: (messages, _tools, shared) => withSharedCaches(prepareServer(messages), HOST_PRESET, shared),
  plan: planServer,
  compact: compactServer,
};
