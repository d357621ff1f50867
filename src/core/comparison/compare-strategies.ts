/**
 * Compares entries (strategies with settings) on one transcript. Per entry: the plan on the
 * whole transcript (fires? at what threshold, the fates for its lane), the compaction at the
 * current point (the one compaction operation, forced, with the offline summariser), its
 * fidelity and ledger (`assessCompaction`), and the whole session replayed under it
 * (`simulateSession`). Every figure is in one counting, so the entries line up.
 */
import { INITIAL_COMPRESSOR_STATE } from '../compression/compressor-state.ts';
import { createOfflineSummarizer } from '../compression/offline-summarizer.ts';
import type { AbortSignalLike, Summarizer } from '../compression/summarizer.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { fidelityReport } from '../fidelity/measure-fidelity.ts';
import { assessCompaction, type AssessmentRoute } from '../lab/assess-compaction.ts';
import { createPlanner, type ExactBasis, type Planner } from '../lab/create-planner.ts';
import { createMessageCaches, type MessageCaches } from '../lab/message-caches.ts';
import { describePinnedMessages } from '../lab/describe-pinned-messages.ts';
import type { CompactionCacheFigures } from '../ledger/compaction-cache-figures.ts';
import { priceInputTokens } from '../ledger/price-input-tokens.ts';
import { resolveLedgerPrices } from '../ledger/resolve-ledger-prices.ts';
import type { Preset } from '../presets/preset.ts';
import { err, ok, type Result } from '../shared/result.ts';
import { messageTokenLookup, type MessageCounting } from '../simulation/message-counting.ts';
import { createPrefixCacheMeter } from '../simulation/prefix-cache-meter.ts';
import { routeCachesPrompts } from '../simulation/route-caches-prompts.ts';
import { simulateSession } from '../simulation/simulate-session.ts';
import { unchangedPrefixTokens } from '../simulation/unchanged-prefix-tokens.ts';
import { compactConversation } from '../strategies/compact-conversation.ts';
import { findStrategy } from '../strategies/strategy-registry.ts';
import type { Strategy } from '../strategies/strategy.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import { describeOverrides, entryConfig, entryLabel, type CompareEntry } from './compare-entry.ts';
import { buildLaneSegments } from './compare-lane.ts';
import type { CompareError, CompareProgress, Comparison, ComparisonRow } from './comparison.ts';

export interface CompareInput {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSchema[];
  /** The base settings; `contextLength` is the window every entry is compared in. */
  readonly config: CompressionConfig;
  readonly entries: readonly CompareEntry[];
  readonly counting: MessageCounting;
  /** An encoding's complete counts, so plans use them; null plans on each strategy's rough estimate. */
  readonly exact: ExactBasis | null;
  readonly route: AssessmentRoute;
  /** The transcript's planner (the worker keeps one per document); one is made when absent. */
  readonly planner?: Planner;
  /** What is derived from each message, shared by the planner, the entries and their simulations. */
  readonly caches?: MessageCaches;
  /** Replay the whole session under each entry (default true). */
  readonly simulate?: boolean;
  /** Indices of pinned messages: every entry keeps them verbatim, in its plan, compaction and simulation. */
  readonly pinned?: readonly number[];
}

export interface CompareControl {
  readonly summarizer?: Summarizer;
  readonly signal?: AbortSignalLike;
  /** Awaited, so a worker can yield to its event loop (and hear a cancel) here. */
  readonly onProgress?: (progress: CompareProgress) => void | Promise<void>;
}

export async function compareStrategies(
  input: CompareInput,
  control: CompareControl = {},
): Promise<Result<Comparison, CompareError>> {
  const { messages, tools, counting, route } = input;
  if (input.entries.length === 0)
    return err({ type: 'NoEntries', message: 'Choose at least one strategy to compare.' });
  const strategies: Strategy[] = [];
  for (const entry of input.entries) {
    const strategy = findStrategy(entry.strategy);
    if (!strategy)
      return err({
        type: 'UnknownStrategy',
        name: entry.strategy,
        message: `Unknown strategy '${entry.strategy}'.`,
      });
    strategies.push(strategy);
  }
  const caches = input.caches ?? createMessageCaches();
  const planner = input.planner ?? createPlanner(messages, { tools, caches });
  const tokensOf = messageTokenLookup(messages, counting);
  const summarizer = control.summarizer ?? createOfflineSummarizer();
  const simulate = input.simulate ?? true;
  const pinned = input.pinned ?? [];
  const systemEnd = messages[0]?.role === 'system' ? 1 : 0;
  let tokensBefore = counting.toolsTokens;
  for (let index = 0; index < messages.length; index++) tokensBefore += counting.perMessage[index] ?? 0;
  const unitsPerEntry = 1 + (simulate ? messages.length : 0);
  const total = unitsPerEntry * input.entries.length;
  const cancelled = (): Result<never, CompareError> =>
    err({ type: 'Cancelled', message: 'The comparison was cancelled.' });

  const rows: ComparisonRow[] = [];
  for (let at = 0; at < input.entries.length; at++) {
    const entry = input.entries[at]!;
    const strategy = strategies[at]!;
    const label = entryLabel(strategy, entry);
    const done = at * unitsPerEntry;
    await control.onProgress?.({ done, total, label });
    if (control.signal?.aborted) return cancelled();
    const config = entryConfig(input.config, entry);
    const plan = planner.plan(strategy, {
      config,
      estimator: input.exact?.encoding ?? 'rough',
      exact: input.exact,
      pinned,
    });
    const outcome = await compactConversation(
      strategy,
      {
        reason: 'manual',
        force: true,
        systemPrompt: '',
        messages,
        tools,
        config,
        state: INITIAL_COMPRESSOR_STATE,
        tokens: {
          of: (index) => counting.perMessage[index] ?? 0,
          request: tokensBefore,
          exact: counting.exact,
        },
        prepared: planner.prepared(strategy),
        sizeCache: caches.sizeCache(strategy.preset),
        today: null,
        mainModel: route.model,
        ...(pinned.length > 0 ? { pinned: new Set(pinned) } : {}),
      },
      { summarizer, now: () => 0, ...(control.signal ? { signal: control.signal } : {}) },
    );
    if (control.signal?.aborted) return cancelled();
    const compacted = outcome.skipped === null;
    let tokensAfter = counting.toolsTokens;
    for (const message of outcome.messages) tokensAfter += tokensOf(message);
    // The same prefix-cache model as the simulation: the transcript was the previous request.
    const meter = createPrefixCacheMeter(routeCachesPrompts(route, strategy.preset));
    meter.request(tokensBefore, 0);
    const cache = meter.compactionCache(
      tokensBefore,
      tokensAfter,
      counting.toolsTokens +
        unchangedPrefixTokens(messages, outcome.messages, (index) => counting.perMessage[index] ?? 0),
    );
    const assessment = compacted
      ? assessCompaction({
          input: outcome.input,
          output: outcome.messages,
          fates: outcome.fates,
          summaries: outcome.compaction.summaries,
          summarizerCalls: outcome.compaction.summarizerCalls,
          preset: strategy.preset,
          route,
          countMessage: tokensOf,
          countText: counting.countText,
          cache,
          pinned,
          caches,
        })
      : null;
    const summaries = compacted
      ? outcome.compaction.summaries.map((summary) => {
          const message = outcome.messages[summary.outputIndex];
          return {
            body: summary.body,
            span: summary.span,
            tokens: message ? tokensOf(message) : counting.countText(summary.body),
            fallback: summary.fallback,
          };
        })
      : [];
    const summaryTokens = summaries.reduce((sum, summary) => sum + summary.tokens, 0);

    const simulation = simulate
      ? await simulateSession(
          {
            strategy,
            messages,
            tools,
            config,
            counting,
            route,
            tokensOf,
            caches,
            triggerBasis: plan.triggerBasis,
            pinned,
          },
          {
            summarizer,
            ...(control.signal ? { signal: control.signal } : {}),
            onProgress: (replayed) => control.onProgress?.({ done: done + 1 + replayed, total, label }),
          },
        )
      : null;
    if (simulation && !simulation.ok) return cancelled();

    rows.push({
      entry,
      label,
      strategy: strategy.name,
      strategyLabel: strategy.label,
      overrides: describeOverrides(strategy, entry),
      fires: plan.wouldCompress,
      reason: plan.reason,
      thresholdTokens: plan.trigger.thresholdTokens,
      triggerRule: plan.trigger.rule,
      triggerTokens: plan.triggerTokens,
      triggerBasis: plan.triggerBasis,
      tokensBefore,
      tokensAfter,
      messagesBefore: messages.length,
      messagesAfter: outcome.messages.length,
      summaryTokens,
      skipped: outcome.skipped,
      notes: outcome.notes,
      explanation: [...plan.explanation, ...describePinnedMessages(plan.pins ?? [])],
      fidelity: assessment?.fidelity ?? fidelityReport([], []),
      ledger: assessment?.ledger ?? null,
      nextTurnInputUsd: assessment ? nextTurnInputUsd(cache, route, strategy.preset) : null,
      summaries,
      reattached: compacted ? outcome.compaction.reattached : [],
      lane: {
        segments: buildLaneSegments(
          plan.fates,
          plan.headEnd,
          systemEnd,
          counting.perMessage,
          counting.toolsTokens,
        ),
        totalTokens: tokensBefore,
        after: {
          tokens: tokensAfter,
          keptTokens: tokensAfter - summaryTokens,
          summaryTokens,
        },
        projectedAfterTokens: plan.after.tokens,
      },
      simulation: simulation ? simulation.value : null,
    });
  }
  await control.onProgress?.({ done: total, total, label: rows[rows.length - 1]?.label ?? '' });
  return ok({
    messages: messages.length,
    contextLength: input.config.contextLength,
    model: route.model,
    provider: route.provider,
    counting: input.exact?.encoding ?? (counting.exact ? 'exact' : 'rough'),
    tokensBefore,
    systemEnd,
    rows,
  });
}

/** The first request after the compaction, priced: its cached prefix read, the rest written or sent. */
function nextTurnInputUsd(
  cache: CompactionCacheFigures,
  route: AssessmentRoute,
  preset: Preset,
): number | null {
  const prices = resolveLedgerPrices(
    route.model,
    { provider: route.provider, baseUrl: route.baseUrl },
    preset,
    route.cacheTtl,
  ).prices;
  return priceInputTokens(
    {
      uncached: cache.tokensAfter - cache.cachedTokensAfter - cache.rewriteTokens,
      cacheRead: cache.cachedTokensAfter,
      cacheWrite: cache.rewriteTokens,
    },
    prices,
  );
}
