/**
 * The explanation panel's sentences: whether compaction would fire now and why (or why not),
 * how the head was chosen, what pruning would do, and what gateway hygiene would decide.
 * Answers the "why did it fire?" question users ask (peers.md §4 #8) from the plan alone.
 */
import type { CompressorState } from '../compression/compressor-state.ts';
import { assertNever } from '../shared/assert-never.ts';
import { formatCount } from '../shared/format-count.ts';
import type { Estimator } from '../tokens/estimator.ts';
import type { LabPlan } from './lab-plan.ts';

const percent = (fraction: number): string => `${Number((fraction * 100).toFixed(1))}%`;
const messages = (count: number): string => `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;

/** How a token figure was obtained, in words. */
export function describeTokenBasis(basis: Estimator): string {
  return basis === 'rough' ? 'rough estimate, chars/4 as Hermes counts' : `exact ${basis} count`;
}

export interface TriggerExplanation {
  readonly verdict: string;
  readonly details: readonly string[];
}

type TriggerPlan = Pick<
  LabPlan,
  | 'wouldCompress'
  | 'reason'
  | 'triggerTokens'
  | 'tokenBasis'
  | 'estimator'
  | 'thresholds'
  | 'tailTokenBudget'
  | 'headSize'
  | 'messageCount'
  | 'minMessagesExclusive'
  | 'headEnd'
  | 'tailStart'
  | 'regions'
  | 'raised'
>;

/** Whether compaction would fire on this transcript now, and every number that decided it. */
export function describeTrigger(
  plan: TriggerPlan,
  state?: Pick<CompressorState, 'cooldownUntilMs' | 'lastSummaryError'>,
): TriggerExplanation {
  const { thresholds } = plan;
  const over = plan.triggerTokens >= thresholds.thresholdTokens;
  const details: string[] = [];
  const pending =
    plan.estimator !== plan.tokenBasis ? ` (${plan.estimator} counts are still being computed)` : '';
  details.push(
    `${formatCount(plan.triggerTokens)} tokens (${describeTokenBasis(plan.tokenBasis)}, messages + tool schemas)${pending} ` +
      `${over ? 'reach' : 'are below'} the threshold of ${formatCount(thresholds.thresholdTokens)}.`,
  );
  details.push(describeThreshold(plan));
  const middle = plan.regions.find((region) => region.name === 'middle');
  switch (plan.reason) {
    case 'ready':
      details.push(
        `The middle (${messages(plan.tailStart - plan.headEnd)}, ${formatCount(middle?.tokens ?? 0)} tokens) would be ` +
          `summarised into at most ${formatCount(thresholds.maxSummaryTokens)} tokens.`,
      );
      break;
    case 'below-threshold':
      details.push(
        `${formatCount(thresholds.thresholdTokens - plan.triggerTokens)} more tokens before it fires.`,
      );
      break;
    case 'too-few-messages':
      details.push(
        `But compress() needs more than ${formatCount(plan.minMessagesExclusive)} messages (head ${plan.headSize} + 3 + 1); ` +
          `this transcript has ${formatCount(plan.messageCount)}, so it would be returned unchanged.`,
      );
      break;
    case 'hermes-raised':
      details.push(
        `But this generation's Hermes raised while pruning old tool results (${plan.raised?.function ?? 'pruning'}: ` +
          `${plan.raised?.exception ?? 'an exception'}), so its compress() would fail and compact nothing.`,
      );
      break;
    case 'no-compressible-window':
      details.push('But the protected head and tail meet: nothing is left between them to summarise.');
      break;
    case 'cooldown':
      details.push(
        `But a failed summary put compaction on cooldown${state?.lastSummaryError ? ` (${state.lastSummaryError})` : ''}.`,
      );
      break;
    case 'ineffective':
      details.push(
        'But the anti-thrash breaker is on: the last two compactions saved too little (ineffective count ≥ 2).',
      );
      break;
    case 'fallback-streak':
      details.push(
        'But two compactions in a row fell back to the deterministic summary (fallback streak ≥ 2).',
      );
      break;
    default:
      assertNever(plan.reason);
  }
  details.push(
    `Tail budget = threshold × target ratio ${percent(thresholds.targetRatio)} = ${formatCount(plan.tailTokenBudget)} tokens.`,
  );
  return {
    verdict: plan.wouldCompress ? 'Compaction would fire now.' : 'Compaction would not fire now.',
    details,
  };
}

/** How the threshold came from the window: the configured share, floors, reservations. */
export function describeThreshold(plan: Pick<LabPlan, 'thresholds'>): string {
  const t = plan.thresholds;
  const parts = [
    `Threshold = ${percent(t.effectiveThresholdPercent)} of the ${formatCount(t.contextLength)}-token window`,
  ];
  if (t.effectiveThresholdPercent !== t.configuredThresholdPercent) {
    parts.push(
      `(raised from the configured ${percent(t.configuredThresholdPercent)}: windows under 512K trigger no lower than 75%)`,
    );
  }
  if (t.reservedOutputTokens !== null)
    parts.push(`after reserving ${formatCount(t.reservedOutputTokens)} output tokens`);
  const plain = Math.trunc((t.contextLength - (t.reservedOutputTokens ?? 0)) * t.effectiveThresholdPercent);
  if (t.thresholdTokens !== plain) {
    parts.push(
      t.thresholdTokens === 64_000
        ? '— raised to the 64,000-token minimum'
        : `— the 64,000-token minimum would swallow the window, so it triggers at 85% of it`,
    );
  }
  return `${parts.join(' ')}: ${formatCount(t.thresholdTokens)} tokens.`;
}

type HeadPlan = Pick<LabPlan, 'headRule' | 'headSize' | 'headEnd' | 'regions'>;

/** Why the protected head ends where it does. */
export function describeHead(plan: HeadPlan, protectFirstN: number, compressionCount: number): string {
  const legacy = plan.headRule === 'first-n-including-system';
  const hasSystem = (plan.regions.find((region) => region.name === 'system')?.end ?? 0) > 0;
  const decayed = !legacy && compressionCount >= 1 && protectFirstN > 0;
  const rule = legacy
    ? `protect_first_n = ${protectFirstN}, the system prompt counted inside it`
    : `${hasSystem ? 'the system prompt + ' : ''}protect_first_n = ${decayed ? `0 (decayed from ${protectFirstN} after the first compaction)` : protectFirstN}`;
  const moved =
    plan.headEnd > plan.headSize
      ? `, then moved forward past tool results to #${formatCount(plan.headEnd)}`
      : '';
  return `Head: the first ${messages(plan.headSize)} stay verbatim (${rule})${moved}.`;
}

type PruningPlan = Pick<LabPlan, 'pruned' | 'prunedCount' | 'pruneBoundary' | 'prunedSavedTokens'>;

/** What Phase 1 would replace. */
export function describePruning(plan: PruningPlan): string {
  if (plan.pruned.length === 0) return 'Pruning: no old tool output is long enough or old enough to shrink.';
  const byKind = { duplicate: 0, 'one-liner': 0, image: 0, arguments: 0 };
  for (const item of plan.pruned) byKind[item.kind] += 1;
  const parts = [
    byKind['one-liner'] > 0 ? `${formatCount(byKind['one-liner'])} become one-liners` : '',
    byKind.duplicate > 0 ? `${formatCount(byKind.duplicate)} duplicates point to a newer copy` : '',
    byKind.image > 0 ? `${formatCount(byKind.image)} screenshots are removed` : '',
    byKind.arguments > 0 ? `${formatCount(byKind.arguments)} tool calls get their long arguments shrunk` : '',
  ].filter(Boolean);
  return (
    `Pruning: ${formatCount(plan.prunedCount)} old tool outputs would be replaced (${parts.join(', ')}); ` +
    `outputs from #${formatCount(plan.pruneBoundary)} on are protected. About ${formatCount(plan.prunedSavedTokens)} tokens reclaimed.`
  );
}

/** The gateway's 85% check, which runs before a message is processed (hermes-reference §4.5). */
export function describeHygiene(plan: Pick<LabPlan, 'hygiene'>): string {
  const hygiene = plan.hygiene;
  if (!hygiene.runsCheck) return 'Session hygiene: not checked (fewer than 4 messages).';
  const source = hygiene.tokenSource === 'actual' ? 'from the provider' : 'estimated';
  const why =
    hygiene.tokensUsed >= hygiene.thresholdTokens ? '' : ' because the message count reached the hard limit';
  return (
    `Session hygiene (85% of the window = ${formatCount(hygiene.thresholdTokens)}): ${formatCount(hygiene.tokensUsed)} ` +
    `tokens (${source}) → ${hygiene.needsCompress ? `the gateway would compact before the next message${why}` : 'no hygiene compaction'}.`
  );
}
