/**
 * Replays a transcript as if it were lived, turn by turn, under one strategy (ROUND2 §2): each
 * user ask and the assistant and tool steps after it form a turn; before each model step (each
 * assistant message) the request is the tool schemas plus the context so far. The strategy's
 * trigger is applied to every request, counted as that strategy counts (Hermes on its rough
 * estimate, the others on the given per-message counts), behind the same gates as the live loop
 * (cooldown, anti-thrash breakers, fed by each request's count as the provider's reading). When
 * it fires, the current context is compacted with the one compaction operation and the offline
 * summariser, assessed (fidelity and ledger), and the session goes on appending the next
 * transcript messages to the compacted context.
 *
 * Linear in the transcript: each request costs O(1) (running totals, the trigger computed once),
 * and only a firing compaction touches the whole context. A compaction that changes nothing
 * (too few messages, it would grow…) is not retried before the next turn.
 */
import { shouldCompress, updateFromResponse } from '../compression/compression-gates.ts';
import { INITIAL_COMPRESSOR_STATE, type CompressorState } from '../compression/compressor-state.ts';
import { createOfflineSummarizer } from '../compression/offline-summarizer.ts';
import type { AbortSignalLike, Summarizer } from '../compression/summarizer.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { locatePinnedMessages } from '../fidelity/locate-pinned-messages.ts';
import { assessCompaction, type AssessmentRoute } from '../lab/assess-compaction.ts';
import { createMessageCaches, type MessageCaches } from '../lab/message-caches.ts';
import { priceInputTokens } from '../ledger/price-input-tokens.ts';
import { resolveLedgerPrices } from '../ledger/resolve-ledger-prices.ts';
import { err, ok, type Result } from '../shared/result.ts';
import { compactConversation } from '../strategies/compact-conversation.ts';
import { isUserAsk } from '../strategies/strategy-kit.ts';
import type { PrepareContext, Strategy, StrategyPlan } from '../strategies/strategy.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import { messageTokenLookup, type MessageCounting } from './message-counting.ts';
import { createPrefixCacheMeter } from './prefix-cache-meter.ts';
import { routeCachesPrompts } from './route-caches-prompts.ts';
import { unchangedPrefixTokens } from './unchanged-prefix-tokens.ts';
import type {
  CompactionCause,
  SessionSimulation,
  SimulatedCompaction,
  SkippedCompaction,
} from './session-simulation.ts';
import { createSimulatedContext } from './simulated-context.ts';

export interface SimulateSessionInput {
  readonly strategy: Strategy;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSchema[];
  readonly config: CompressionConfig;
  readonly counting: MessageCounting;
  /** Who prices the session and whether its prompts are cached. */
  readonly route: AssessmentRoute;
  /** Tokens of any message by identity (`messageTokenLookup`), shared across strategies. */
  readonly tokensOf?: (message: Message) => number;
  /**
   * What is derived from each message, shared with the planner and the other strategies'
   * simulations, so nothing is measured, serialised or read for facts twice.
   */
  readonly caches?: MessageCaches;
  /** Which count the trigger decides on; found by planning the first messages when absent. */
  readonly triggerBasis?: StrategyPlan['triggerBasis'];
  /** Indices of pinned messages: every compaction of the session keeps them verbatim. */
  readonly pinned?: readonly number[];
}

export interface SimulationControl {
  /** The offline summariser when absent (the simulation never calls a provider by default). */
  readonly summarizer?: Summarizer;
  /** Checked before every request; an aborted signal ends the replay with a `Cancelled` error. */
  readonly signal?: AbortSignalLike;
  /** Messages replayed so far, every `progressEvery` messages; awaited, so a worker can yield here. */
  readonly onProgress?: (done: number, total: number) => void | Promise<void>;
  readonly progressEvery?: number;
}

export interface SimulationCancelled {
  readonly type: 'Cancelled';
  readonly message: string;
}

/** A model step takes this long in the replay's clock (the failure cooldown is judged on it). */
export const SIMULATED_MS_PER_REQUEST = 30_000;
const DEFAULT_PROGRESS_EVERY = 500;
/** Planning this many leading messages is enough to learn which count a strategy's trigger uses. */
const BASIS_PROBE_MESSAGES = 8;

export async function simulateSession(
  input: SimulateSessionInput,
  control: SimulationControl = {},
): Promise<Result<SessionSimulation, SimulationCancelled>> {
  const { strategy, messages, tools, config, counting, route } = input;
  const preset = strategy.preset;
  const caches = input.caches ?? createMessageCaches();
  const tokensOf = input.tokensOf ?? messageTokenLookup(messages, counting);
  const summarizer = control.summarizer ?? createOfflineSummarizer();
  const progressEvery = Math.max(1, control.progressEvery ?? DEFAULT_PROGRESS_EVERY);
  const triggerBasis = input.triggerBasis ?? probeTriggerBasis(input, caches);
  const thresholdTokens = strategy.trigger(config).thresholdTokens;
  const toolsTokens = counting.toolsTokens;

  const caching = routeCachesPrompts(route, preset);
  const meter = createPrefixCacheMeter(caching);
  const context = createSimulatedContext({
    tools,
    tokensOf,
    roughPreset: triggerBasis === 'rough' ? preset : null,
    sizeCache: caches.sizeCache(preset),
  });

  // Pins follow their messages: the transcript's objects, then the copies each compaction kept.
  const pinnedMessages = new Set<Message>();
  for (const index of input.pinned ?? []) if (messages[index]) pinnedMessages.add(messages[index]);

  let requestCount = 0;
  for (const message of messages) if (message.role === 'assistant') requestCount++;
  const timelineTokens = new Int32Array(requestCount);
  const timelineIndex = new Int32Array(requestCount);
  const compactions: SimulatedCompaction[] = [];
  const skipped: SkippedCompaction[] = [];
  let state: CompressorState = INITIAL_COMPRESSOR_STATE;
  let turn = 0;
  let request = 0;
  /** No retry of a compaction that changed nothing within the same turn. */
  let skippedInTurn = -1;
  let peakTokens = 0;
  let peakRequest = -1;
  let overflowRequests = 0;
  let summarizerCalls = 0;
  let summarizerInput = 0;
  let summarizerOutput = 0;
  let summarizerUsd: number | null = 0;
  const cancelled = (): Result<never, SimulationCancelled> =>
    err({ type: 'Cancelled', message: 'The simulation was cancelled.' });

  for (let index = 0; index < messages.length; index++) {
    if (index > 0 && index % progressEvery === 0) {
      await control.onProgress?.(index, messages.length);
      if (control.signal?.aborted) return cancelled();
    }
    const message = messages[index]!;
    if (message.role === 'assistant') {
      if (control.signal?.aborted) return cancelled();
      const nowMs = request * SIMULATED_MS_PER_REQUEST;
      let tokens = context.messageTokens() + toolsTokens;
      let sharedPrefix = meter.previousTokens;
      /** Compacts the context now (a compaction that changes nothing is recorded as skipped). */
      const compactNow = async (cause: CompactionCause, triggerTokens: number): Promise<void> => {
        const before = context.messages;
        const beforeTokens = context.tokens;
        const pinned: number[] = [];
        if (pinnedMessages.size > 0)
          before.forEach((message, at) => {
            if (pinnedMessages.has(message)) pinned.push(at);
          });
        const outcome = await compactConversation(
          strategy,
          {
            reason: cause === 'trigger' ? 'pre-api' : 'overflow',
            systemPrompt: '',
            messages: before,
            tools,
            config,
            state,
            tokens: { of: (at) => beforeTokens[at] ?? 0, request: tokens, exact: counting.exact },
            prepared: strategy.prepare(before, tools, caches),
            sizeCache: caches.sizeCache(preset),
            currentTokens: triggerTokens,
            today: null,
            mainModel: route.model,
            ...(pinned.length > 0 ? { pinned: new Set(pinned) } : {}),
          },
          { summarizer, now: () => nowMs, ...(control.signal ? { signal: control.signal } : {}) },
        );
        state = outcome.state;
        if (outcome.skipped !== null) {
          skipped.push({ turn, request, cause, reason: outcome.skipped });
          skippedInTurn = turn;
          return;
        }
        for (const position of locatePinnedMessages(outcome.input, pinned, outcome.messages).values())
          pinnedMessages.add(outcome.messages[position]!);
        sharedPrefix = Math.min(
          sharedPrefix,
          toolsTokens + unchangedPrefixTokens(before, outcome.messages, (at) => beforeTokens[at] ?? 0),
        );
        const messagesBefore = before.length;
        context.replace(outcome.messages);
        const tokensAfter = context.messageTokens() + toolsTokens;
        // The meter's view of the compacted request prices the ledger (a rewrite is what it writes).
        const cache = meter.compactionCache(tokens, tokensAfter, sharedPrefix);
        const { ledger, fidelity } = assessCompaction({
          input: outcome.input,
          output: outcome.messages,
          fates: outcome.fates,
          summaries: outcome.compaction.summaries,
          summarizerCalls: outcome.compaction.summarizerCalls,
          preset,
          route,
          countMessage: tokensOf,
          countText: counting.countText,
          cache,
          caches,
        });
        summarizerCalls += outcome.compaction.summarizerCalls;
        summarizerInput += ledger.summaryInputTokens;
        summarizerOutput += ledger.summaryOutputTokens;
        summarizerUsd =
          summarizerUsd === null || ledger.summaryUsd === null ? null : summarizerUsd + ledger.summaryUsd;
        compactions.push({
          turn,
          request,
          messageIndex: index,
          cause,
          triggerTokens,
          tokensBefore: tokens,
          tokensAfter,
          messagesBefore,
          messagesAfter: outcome.messages.length,
          cacheRewriteTokens: cache.rewriteTokens,
          fidelity: {
            score: fidelity.score,
            total: fidelity.total,
            survived: fidelity.survived,
            byKind: fidelity.byKind,
          },
          ledger,
        });
        tokens = tokensAfter;
      };

      const triggerTokens = triggerBasis === 'rough' ? context.roughRequestTokens() : tokens;
      const fires =
        config.enabled &&
        skippedInTurn !== turn &&
        context.messages.length > 0 &&
        shouldCompress(state, { thresholdTokens, preset, nowMs }, triggerTokens).compress;
      if (fires) await compactNow('trigger', triggerTokens);
      // The provider rejects a request larger than the window; every tool then compacts and
      // retries (Hermes' overflow recovery), past the anti-thrash breakers but not the switch.
      if (config.enabled && tokens > config.contextLength && skippedInTurn !== turn)
        await compactNow('overflow', tokens);
      if (control.signal?.aborted) return cancelled();
      meter.request(tokens, sharedPrefix);
      timelineTokens[request] = tokens;
      timelineIndex[request] = index;
      if (tokens > peakTokens) {
        peakTokens = tokens;
        peakRequest = request;
      }
      if (tokens > config.contextLength) overflowRequests++;
      // The provider's reading of this request feeds the anti-thrash gates, as in the live loop.
      state = updateFromResponse(state, { prompt_tokens: tokens }, thresholdTokens, preset);
      request++;
    }
    if (isUserAsk(message)) turn++;
    context.append(message);
  }
  await control.onProgress?.(messages.length, messages.length);

  const prices = resolveLedgerPrices(
    route.model,
    { provider: route.provider, baseUrl: route.baseUrl },
    preset,
    route.cacheTtl,
  ).prices;
  const totals = meter.totals();
  return ok({
    strategy: strategy.name,
    thresholdTokens,
    triggerBasis,
    messages: messages.length,
    turns: turn,
    requests: request,
    compactions,
    skipped,
    peakTokens,
    peakRequest,
    overflowRequests,
    input: {
      tokens: totals.tokens,
      uncachedTokens: totals.uncached,
      cacheReadTokens: totals.cacheRead,
      cacheWriteTokens: totals.cacheWrite,
      usdWithoutCaching: priceInputTokens({ uncached: totals.tokens, cacheRead: 0, cacheWrite: 0 }, prices),
      usdWithCaching: priceInputTokens(totals, prices),
      caching,
    },
    cacheRewriteTokens: compactions.reduce((sum, compaction) => sum + compaction.cacheRewriteTokens, 0),
    summarizer: {
      calls: summarizerCalls,
      inputTokens: summarizerInput,
      outputTokens: summarizerOutput,
      usd: summarizerUsd,
    },
    timeline: { tokens: timelineTokens, messageIndex: timelineIndex },
  });
}

/** The strategy's plan says which count its trigger uses; a few leading messages are enough to ask. */
function probeTriggerBasis(
  input: SimulateSessionInput,
  prepareContext: PrepareContext,
): StrategyPlan['triggerBasis'] {
  const { strategy, tools, config, counting } = input;
  const messages = input.messages.slice(0, BASIS_PROBE_MESSAGES);
  let request = counting.toolsTokens;
  for (let index = 0; index < messages.length; index++) request += counting.perMessage[index] ?? 0;
  return strategy.plan({
    messages,
    tools,
    config,
    state: INITIAL_COMPRESSOR_STATE,
    tokens: { of: (index) => counting.perMessage[index] ?? 0, request, exact: counting.exact },
    prepared: strategy.prepare(messages, tools, prepareContext),
  }).triggerBasis;
}
