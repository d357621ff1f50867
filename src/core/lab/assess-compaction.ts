/**
 * What one compaction kept and what it cost (ROUND2 §3 and §5), for every strategy alike: the
 * facts of the messages it summarised, dropped or shortened, checked against what the model
 * sees afterwards; and its ledger — the summariser call, the cache it invalidates, what each
 * later turn saves and when that pays it back. Replays price the summariser call from the prompt
 * and the answer and simulate the cache; a live compaction passes the real figures instead.
 */
import { resolveCachePolicy, type CacheRoute } from '../caching/cache-policy.ts';
import type { CacheTtl } from '../caching/apply-cache-control.ts';
import { extractFacts } from '../fidelity/extract-facts.ts';
import { findMissingPinnedMessages } from '../fidelity/find-missing-pinned-messages.ts';
import { measureFidelity, type FidelityReport } from '../fidelity/measure-fidelity.ts';
import type { CompactionCacheFigures } from '../ledger/compaction-cache-figures.ts';
import { computeCompactionLedger, type CompactionLedger } from '../ledger/compute-compaction-ledger.ts';
import { simulateCompactionCache } from '../ledger/simulate-compaction-cache.ts';
import type { Preset } from '../presets/preset.ts';
import type { MessageCaches } from './message-caches.ts';
import { FATE, type CompactionSummary } from '../strategies/strategy.ts';
import type { Message } from '../transcript/message.ts';
import { EMPTY_USAGE, type CanonicalUsage } from '../usage/canonical-usage.ts';

/** Where the conversation runs: who prices it and whether its prefix is cached. */
export interface AssessmentRoute {
  readonly model: string;
  /** Provider id as Hermes spells it (`anthropic`, `openrouter`, `openai`, `custom`…). */
  readonly provider: string;
  readonly baseUrl: string;
  readonly apiMode: CacheRoute['apiMode'];
  readonly cacheTtl: CacheTtl;
  /** Send cache markers at all (the chat option; on by default). */
  readonly promptCaching: boolean;
  /** The summariser's model when it is not the conversation's (an auxiliary model). */
  readonly summaryModel?: string;
}

export interface AssessCompactionInput {
  /** The messages that were compacted. */
  readonly input: readonly Message[];
  /** What the model sees afterwards. */
  readonly output: readonly Message[];
  /** One fate per input message. */
  readonly fates: Uint8Array;
  readonly summaries: readonly CompactionSummary[];
  readonly summarizerCalls: number;
  /** The strategy's host preset: cache markers and prices of its generation. */
  readonly preset: Preset;
  readonly route: AssessmentRoute;
  readonly countMessage: (message: Message) => number;
  readonly countText: (text: string) => number;
  /** Input indices the user pinned. */
  readonly pinned?: Iterable<number>;
  /** What earlier assessments read from these messages (the transcript's `MessageCaches`). */
  readonly caches?: Pick<MessageCaches, 'facts' | 'visibleTexts'>;
  /** The summariser call's real usage (live compactions); estimated from the texts otherwise. */
  readonly summaryUsage?: CanonicalUsage | null;
  /** The real cache figures (live compactions); simulated otherwise. */
  readonly cache?: CompactionCacheFigures;
  /**
   * Whether `summaryUsage` is what the provider billed; by default, whenever it is given. A
   * reviewed replay passes the counted usage of the call that wrote the original text.
   */
  readonly summaryMeasured?: boolean;
}

export interface CompactionAssessment {
  readonly fidelity: FidelityReport;
  readonly ledger: CompactionLedger;
  /** The cache figures the ledger was priced from (given, or simulated). */
  readonly cache: CompactionCacheFigures;
  /** Pinned input indices that are not in the output verbatim. */
  readonly missingPins: readonly number[];
  /** Whether the summariser call is priced from the provider's usage (a live compaction) or counted. */
  readonly summaryMeasured: boolean;
}

/** Facts at stake: everything the compaction did not keep verbatim. */
function changedIndices(fates: Uint8Array): number[] {
  const indices: number[] = [];
  for (let index = 0; index < fates.length; index++) if (fates[index] !== FATE.kept) indices.push(index);
  return indices;
}

/** The summariser calls priced from what was sent and written (a replay has no real usage). */
function estimatedSummaryUsage(input: AssessCompactionInput): CanonicalUsage | null {
  if (input.summarizerCalls === 0) return null;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const summary of input.summaries) {
    if (summary.prompt !== null) inputTokens += input.countText(summary.prompt);
    outputTokens += input.countText(summary.body);
  }
  return { ...EMPTY_USAGE, inputTokens, outputTokens, requestCount: input.summarizerCalls };
}

export function assessCompaction(input: AssessCompactionInput): CompactionAssessment {
  const facts = extractFacts(input.input, changedIndices(input.fates), input.caches?.facts);
  const fidelity = measureFidelity(facts, { messages: input.output }, input.caches?.visibleTexts);
  const { route } = input;
  const policy = resolveCachePolicy(
    { provider: route.provider, model: route.model, baseUrl: route.baseUrl, apiMode: route.apiMode },
    input.preset,
  );
  const cache =
    input.cache ??
    simulateCompactionCache({
      before: input.input,
      after: input.output,
      countTokens: input.countMessage,
      caching: route.promptCaching && policy.shouldCache,
      ttl: route.cacheTtl,
      preset: input.preset,
      nativeLayout: policy.nativeLayout,
    });
  const ledger = computeCompactionLedger({
    model: route.model,
    route: { provider: route.provider, baseUrl: route.baseUrl },
    preset: input.preset,
    summaryUsage: input.summaryUsage !== undefined ? input.summaryUsage : estimatedSummaryUsage(input),
    ...(route.summaryModel ? { summaryModel: route.summaryModel } : {}),
    cache,
    cacheTtl: route.cacheTtl,
  });
  return {
    fidelity,
    ledger,
    cache,
    summaryMeasured:
      input.summaryMeasured ?? (input.summaryUsage !== undefined && input.summaryUsage !== null),
    missingPins: input.pinned ? findMissingPinnedMessages(input.input, input.pinned, input.output) : [],
  };
}
