import { assertNever } from '../shared/assert-never.ts';
import type { Message } from '../transcript/message.ts';
import type { ProbeFact } from './probe-fact.ts';
import { normalizeProbeAnswer, parseProbeReply } from './parse-probe-reply.ts';

/**
 * What became of one fact: `recalled` (the exact value, after normalisation), `wrong` (another
 * answer), `unknown` (the model said it does not know), `missing` (the reply has no line for it).
 */
export type ProbeOutcome = 'recalled' | 'wrong' | 'unknown' | 'missing';

export interface ProbeFactScore extends ProbeFact {
  readonly outcome: ProbeOutcome;
  /** The model's answer as it wrote it (cleaned of quotes and bold); null when missing. */
  readonly answer: string | null;
  /**
   * The value appears verbatim in what the model was given after the compaction: "in the
   * summary, not recalled" differs from "lost in the compaction".
   */
  readonly inCompactedContext: boolean;
}

export interface ProbeScore {
  readonly facts: readonly ProbeFactScore[];
  readonly recalled: number;
  /** recalled / planted. */
  readonly recall: number;
  /** Facts whose value survived the compaction as text. */
  readonly inContext: number;
}

/**
 * Scores the model's reply against the planted facts and the compacted messages it was asked
 * over. Recall is the share of facts answered with their exact value.
 *
 * @example scoreProbeReply(facts, 'P1: amber-falcon-4821\nP2: unknown', compacted).recall // 0.5 of 2
 */
export function scoreProbeReply(
  facts: readonly ProbeFact[],
  reply: string,
  compacted: readonly Message[],
): ProbeScore {
  const answers = parseProbeReply(
    reply,
    facts.map((fact) => fact.label),
  );
  // Values are lower-case words, digits and hyphens: JSON escapes none of them.
  const context = JSON.stringify(compacted).toLowerCase();
  const scored = facts.map((fact): ProbeFactScore => {
    const answer = answers.get(fact.label) ?? null;
    return {
      ...fact,
      answer,
      outcome: outcomeOf(fact.value, answer),
      inCompactedContext: context.includes(fact.value.toLowerCase()),
    };
  });
  const recalled = count(scored, (fact) => fact.outcome === 'recalled');
  return {
    facts: scored,
    recalled,
    recall: facts.length === 0 ? 0 : recalled / facts.length,
    inContext: count(scored, (fact) => fact.inCompactedContext),
  };
}

function outcomeOf(value: string, answer: string | null): ProbeOutcome {
  if (answer === null || answer === '') return 'missing';
  const normalized = normalizeProbeAnswer(answer);
  if (normalized === normalizeProbeAnswer(value)) return 'recalled';
  if (normalized === 'unknown') return 'unknown';
  return 'wrong';
}

const count = <T>(items: readonly T[], test: (item: T) => boolean): number =>
  items.reduce((total, item) => total + (test(item) ? 1 : 0), 0);

/** The outcome as the result table says it. */
export function describeProbeOutcome(outcome: ProbeOutcome): string {
  switch (outcome) {
    case 'recalled':
      return 'recalled';
    case 'wrong':
      return 'wrong answer';
    case 'unknown':
      return 'said unknown';
    case 'missing':
      return 'no answer';
    default:
      return assertNever(outcome);
  }
}
