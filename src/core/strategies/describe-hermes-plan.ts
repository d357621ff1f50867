/**
 * Sentences that explain Hermes' phases 1–2 on one transcript: how the head was chosen, what
 * pruning would replace, and what gateway hygiene would decide. Every figure is the one the
 * plan used, labelled with what it measures (pruning works on rough tokens).
 */
import type { CompressorState } from '../compression/compressor-state.ts';
import type { HygieneDecision } from '../compression/hygiene-decision.ts';
import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { formatCount } from '../shared/format-count.ts';
import { plural } from '../shared/plural.ts';
import type { HermesPlanDetails } from './hermes-plan-details.ts';

const messages = (count: number): string => plural(count, 'message');

/** Why the protected head ends where it does. */
export function describeHermesHead(
  plan: Pick<HermesPlanDetails, 'headRule' | 'headSize' | 'systemPromptOutside'>,
  headEnd: number,
  hasSystem: boolean,
  config: Pick<CompressionConfig, 'protectFirstN'>,
  state: Pick<CompressorState, 'compressionCount' | 'previousSummary'>,
): string {
  const protectFirstN = config.protectFirstN;
  const legacy = plan.headRule === 'first-n-including-system';
  const decayed = !legacy && (state.compressionCount >= 1 || !!state.previousSummary) && protectFirstN > 0;
  const rule = legacy
    ? plan.systemPromptOutside
      ? `the chat's system prompt, kept outside the compaction, + protect_first_n = ${protectFirstN}`
      : `protect_first_n = ${protectFirstN}, the system prompt counted inside it`
    : `${hasSystem ? 'the system prompt + ' : ''}protect_first_n = ${decayed ? `0 (decayed from ${protectFirstN} after the first compaction)` : protectFirstN}`;
  const moved =
    headEnd > plan.headSize ? `, then moved forward past tool results to #${formatCount(headEnd)}` : '';
  return `Head: the first ${messages(plan.headSize)} stay verbatim (${rule})${moved}.`;
}

/** What Phase 1 would replace, and how many tokens it gives back. */
export function describeHermesPruning(
  plan: Pick<HermesPlanDetails, 'prunedCount' | 'pruneBoundary'>,
  pruned: readonly PrunedToolOutput[],
  savedTokens: number,
): string {
  if (pruned.length === 0) return 'Pruning: no old tool output is long enough or old enough to shrink.';
  const byKind = { duplicate: 0, 'one-liner': 0, image: 0, arguments: 0 };
  for (const item of pruned) byKind[item.kind] += 1;
  // Verbs agree with their counts: "1 becomes a one-liner", "2 duplicates point to a newer copy".
  const one = (count: number): boolean => count === 1;
  const parts = [
    byKind['one-liner'] > 0
      ? `${formatCount(byKind['one-liner'])} ${one(byKind['one-liner']) ? 'becomes a one-liner' : 'become one-liners'}`
      : '',
    byKind.duplicate > 0
      ? `${plural(byKind.duplicate, 'duplicate')} ${one(byKind.duplicate) ? 'points' : 'point'} to a newer copy`
      : '',
    byKind.image > 0
      ? `${plural(byKind.image, 'screenshot')} ${one(byKind.image) ? 'is' : 'are'} removed`
      : '',
    byKind.arguments > 0
      ? `${plural(byKind.arguments, 'tool call')} ${one(byKind.arguments) ? 'gets its' : 'get their'} long arguments shrunk`
      : '',
  ].filter(Boolean);
  return (
    `Pruning: ${plural(plan.prunedCount, 'old tool output')} would be replaced (${parts.join(', ')}); ` +
    `outputs from #${formatCount(plan.pruneBoundary)} on are protected. About ${formatCount(Math.round(savedTokens))} tokens reclaimed.`
  );
}

/** The gateway's 85% check, which runs before a message is processed (hermes-reference §4.5). */
export function describeHermesHygiene(hygiene: HygieneDecision): string {
  if (!hygiene.runsCheck) return 'Session hygiene: not checked (fewer than 4 messages).';
  const source = hygiene.tokenSource === 'actual' ? 'from the provider' : 'estimated';
  const why =
    hygiene.tokensUsed >= hygiene.thresholdTokens ? '' : ' because the message count reached the hard limit';
  return (
    `Session hygiene (85% of the window = ${formatCount(hygiene.thresholdTokens)}): ${formatCount(hygiene.tokensUsed)} ` +
    `tokens (${source}) → ${hygiene.needsCompress ? `the gateway would compact before the next message${why}` : 'no hygiene compaction'}.`
  );
}
