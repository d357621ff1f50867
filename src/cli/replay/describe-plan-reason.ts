import type { CompressionPlan } from '../../core/compression/plan-compression.ts';
import { assertNever } from '../../core/shared/assert-never.ts';
import { formatCount } from '../../core/shared/format-count.ts';

/** Why the trigger fires or not, in words, with the figures it was judged on. */
export function describePlanReason(plan: CompressionPlan, tokensLabel: string): string {
  const { reason } = plan;
  switch (reason) {
    case 'ready':
      return `the context (${formatCount(plan.tokens)} ${tokensLabel}) is over the trigger (${formatCount(plan.thresholds.thresholdTokens)})`;
    case 'below-threshold':
      return `the context (${formatCount(plan.tokens)} ${tokensLabel}) is below the trigger (${formatCount(plan.thresholds.thresholdTokens)})`;
    case 'too-few-messages':
      return 'there are too few messages: the protected head and tail cover them all';
    case 'hermes-raised':
      return `this generation's Hermes raises while pruning (${plan.raised?.function ?? 'pruning'}: ${plan.raised?.exception ?? 'an exception'})`;
    case 'no-compressible-window':
      return 'no message lies between the protected head and the protected tail';
    case 'cooldown':
      return 'a failed summary put compaction on cooldown';
    case 'ineffective':
      return 'the last compactions saved too little (the anti-thrash breaker)';
    case 'fallback-streak':
      return 'the last summaries fell back to the deterministic summary (the fallback breaker)';
    default:
      return assertNever(reason);
  }
}
