import type { Message } from '../transcript/message.ts';
import { collectVisibleTexts, type VisibleTextsCache } from './collect-visible-texts.ts';
import { FACT_KINDS, type Fact, type FactKind } from './fact.ts';
import { findSurvivingFacts } from './find-surviving-facts.ts';

/** What the model sees after a compaction. */
export interface VisibleContext {
  /** The compacted message list, the summary message included. */
  messages: readonly Message[];
  /** Text the model sees outside those messages (a summary held apart, re-attached files). */
  texts?: readonly string[];
}

export interface KindFidelity {
  total: number;
  survived: number;
  /** survived / total; 1 when there were no facts of the kind. */
  score: number;
}

export interface FidelityReport {
  /** survived / total over all kinds; 1 when there were no facts (nothing could be lost). */
  score: number;
  total: number;
  survived: number;
  /** Every kind, in `FACT_KINDS` order, including the ones with no facts. */
  byKind: Record<FactKind, KindFidelity>;
  /** The facts that did not survive, in extraction order, each with its `messageIndex`. */
  lost: Fact[];
}

/**
 * How much of what a compaction removed is still in front of the model: each fact (from
 * `extractFacts`) survives when its normalised text appears, as whole words, in the visible
 * context (see `findSurvivingFacts` for the rules). Each fact counts once, however often it was
 * said. Deterministic and offline; linear in the visible text.
 *
 * @example
 * const facts = extractFacts(messages, summarisedIndices);
 * const report = measureFidelity(facts, { messages: compacted });
 * report.score;                         // 0.62
 * report.byKind.error;                  // { total: 8, survived: 3, score: 0.375 }
 * report.lost.map((fact) => fact.display);
 */
export function measureFidelity(
  facts: readonly Fact[],
  visible: VisibleContext,
  /** Each message's visible pieces from earlier measurements (`MessageCaches.visibleTexts`). */
  cache?: VisibleTextsCache,
): FidelityReport {
  const survived = findSurvivingFacts(facts, collectVisibleTexts(visible.messages, visible.texts, cache));
  return fidelityReport(facts, survived);
}

/**
 * The report for facts whose survival is already known (one flag per fact, as
 * `findSurvivingFacts` gives them), for callers that check several candidates against one scan.
 *
 * @example fidelityReport(facts, findSurvivingFacts(facts, collectVisibleTexts(compacted)))
 */
export function fidelityReport(facts: readonly Fact[], survived: readonly boolean[]): FidelityReport {
  const counts = {} as Record<FactKind, { total: number; survived: number }>;
  for (const kind of FACT_KINDS) counts[kind] = { total: 0, survived: 0 };
  const lost: Fact[] = [];
  facts.forEach((fact, index) => {
    const count = counts[fact.kind];
    count.total += 1;
    if (survived[index]) count.survived += 1;
    else lost.push(fact);
  });
  const byKind = {} as Record<FactKind, KindFidelity>;
  for (const kind of FACT_KINDS) {
    const { total, survived: kept } = counts[kind];
    byKind[kind] = { total, survived: kept, score: ratio(kept, total) };
  }
  const total = facts.length;
  const kept = total - lost.length;
  return { score: ratio(kept, total), total, survived: kept, byKind, lost };
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 1 : part / whole);
