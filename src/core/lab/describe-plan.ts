/**
 * The explanation panel's verdict: whether compaction would fire now and why (or why not), with
 * every number that decided it, in both countings. Answers the "why did it fire?" question
 * users ask (peers.md §4 #8) from the plan alone; the strategy adds its own sentences.
 */
import type { CompressorState } from '../compression/compressor-state.ts';
import { assertNever } from '../shared/assert-never.ts';
import { formatCount } from '../shared/format-count.ts';
import { plural } from '../shared/plural.ts';
import type { Estimator } from '../tokens/estimator.ts';
import { FATE } from '../strategies/strategy.ts';
import type { LabPlan } from './lab-plan.ts';
import type { HygieneDecision } from '../compression/hygiene-decision.ts';
import type { TurnCompactionDecision } from '../loop/decide-turn-compaction.ts';

const messages = (count: number): string => plural(count, 'message');

/** " and 42 messages dropped without a summary", when the plan drops any (Cline, a trimmed request). */
function droppedText(fates: Uint8Array): string {
  let dropped = 0;
  for (const fate of fates) if (fate === FATE.dropped) dropped++;
  return dropped > 0 ? ` and ${messages(dropped)} dropped without a summary` : '';
}

/** How a token figure was obtained, in words. */
export function describeTokenBasis(basis: Estimator): string {
  return basis === 'rough' ? 'rough estimate, chars/4 as Hermes counts' : `exact ${basis} count`;
}

export interface TriggerExplanation {
  readonly verdict: string;
  readonly details: readonly string[];
}

const TRIGGER_BASIS_WORDS: Record<LabPlan['triggerBasis'], string> = {
  rough: "Hermes' rough estimate",
  exact: 'exact count',
  estimate: 'rough estimate',
};

type TriggerPlan = Pick<
  LabPlan,
  | 'wouldCompress'
  | 'reason'
  | 'trigger'
  | 'triggerTokens'
  | 'triggerBasis'
  | 'counts'
  | 'countsDisagree'
  | 'estimator'
  | 'tokenBasis'
  | 'headEnd'
  | 'tailStart'
  | 'messageCount'
  | 'summaries'
  | 'fates'
  | 'after'
  | 'hermes'
  | 'live'
>;

/** Whether compaction would fire on this transcript now, and every number that decided it. */
export function describeTrigger(
  plan: TriggerPlan,
  state?: Pick<CompressorState, 'lastSummaryError'>,
): TriggerExplanation {
  const threshold = plan.trigger.thresholdTokens;
  const over = plan.triggerTokens >= threshold;
  const live = plan.live ?? null;
  const details: string[] = [
    `${formatCount(plan.triggerTokens)} tokens (${
      live
        ? "Hermes' rough estimate of the request the chat sends: system prompt, messages and tool schemas"
        : `${TRIGGER_BASIS_WORDS[plan.triggerBasis]}, messages + tool schemas`
    }) ${over ? 'reach' : 'are below'} the trigger of ${formatCount(threshold)}: ${plan.trigger.rule}.`,
  ];
  if (live) details.push(...describeLiveLoop(live, plan.hermes?.hygiene ?? null));
  const { rough, exact } = plan.counts;
  if (exact !== null) {
    details.push(
      `Both countings: ${formatCount(rough)} rough, ${formatCount(exact)} exact (${plan.tokenBasis === 'rough' ? plan.estimator : plan.tokenBasis}).` +
        (plan.countsDisagree
          ? ` They disagree about firing: the rough count is ${rough >= threshold ? 'over' : 'under'} the trigger, the exact one ${exact >= threshold ? 'over' : 'under'}.`
          : ''),
    );
  } else if (plan.estimator !== plan.tokenBasis) {
    details.push(`Exact ${plan.estimator} counts are still being computed.`);
  }
  switch (plan.reason) {
    case 'ready':
      details.push(
        plan.summaries.length > 0
          ? `${messages(plan.summaries.reduce((sum, span) => sum + span.end - span.start, 0))} would be summarised${droppedText(plan.fates)}; the context would go to about ${formatCount(plan.after.tokens)} tokens.`
          : `The context would go to about ${formatCount(plan.after.tokens)} tokens.`,
      );
      break;
    case 'below-threshold':
      details.push(`${formatCount(threshold - plan.triggerTokens)} more tokens before it fires.`);
      break;
    case 'too-few-messages':
      details.push(
        plan.hermes
          ? `But compress() needs more than ${formatCount(plan.hermes.minMessagesExclusive)} messages (head ${plan.hermes.headSize} + 3 + 1); ` +
              `this transcript has ${formatCount(plan.messageCount)}, so it would be returned unchanged.`
          : `But ${formatCount(plan.messageCount)} messages are too few to compact.`,
      );
      break;
    case 'hermes-raised':
      details.push(
        `But this generation's Hermes raised while pruning old tool results (${plan.hermes?.raised?.function ?? 'pruning'}: ` +
          `${plan.hermes?.raised?.exception ?? 'an exception'}), so its compress() would fail and compact nothing.`,
      );
      break;
    case 'no-compressible-window':
      details.push('But what must be kept covers everything: nothing is left to summarise.');
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
    case 'disabled':
      details.push('But compaction is switched off in the settings.');
      break;
    case 'deferred':
      details.push(
        "But the provider's last prompt count fitted under the trigger and the estimate grew little since, so the loop waits for the provider's next count before compacting (2026-07).",
      );
      break;
    default:
      assertNever(plan.reason);
  }
  const when = live ? 'before the next request' : 'now';
  return {
    verdict: plan.wouldCompress ? `Compaction would fire ${when}.` : `Compaction would not fire ${when}.`,
    details,
  };
}

const CHECK_WORDS: Record<NonNullable<TurnCompactionDecision['firedBy']>, string> = {
  hygiene: 'session hygiene',
  preflight: 'the preflight',
  'pre-request': 'the pre-request check',
};

/**
 * Which count the live chat loop decides on, and which of its checks fires first: the
 * pre-request check judges the count above; hygiene judges the provider's reported count.
 */
function describeLiveLoop(live: TurnCompactionDecision, hermesHygiene: HygieneDecision | null): string[] {
  const lines = [
    `In the chat, the loop decides on this count before every request (its pre-request check); the preflight counts the same request with the system prompt as plain text (${formatCount(live.preflightTokens)}), and after a tool round the provider's reported prompt count of the last response is judged instead.`,
  ];
  const hygiene = live.hygiene;
  // Hermes' own explanation states hygiene already; said again only where the chat's figure differs.
  const saidByHermes =
    hermesHygiene?.runsCheck === true && hygiene.runsCheck && hermesHygiene.tokensUsed === hygiene.tokensUsed;
  if (hygiene.runsCheck && !saidByHermes) {
    lines.push(
      `Session hygiene: ${formatCount(hygiene.tokensUsed)} tokens (${hygiene.tokenSource === 'actual' ? "the provider's last reported prompt count" : 'rough estimate of the messages, no count reported yet'}) ` +
        `${hygiene.tokensUsed >= hygiene.thresholdTokens ? 'reach' : 'are below'} 85% of the window (${formatCount(hygiene.thresholdTokens)}).`,
    );
  }
  if (live.firedBy !== null) lines.push(`Next request: ${CHECK_WORDS[live.firedBy]} compacts first.`);
  return lines;
}
