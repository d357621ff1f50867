import type { Fact, FactKind } from '../fidelity/fact.ts';

/** What two compactions of the same transcript lost, side by side. */
export interface LostFactsDiff {
  /** Lost by the first entry and kept by the second. */
  readonly onlyFirstLost: readonly Fact[];
  /** Lost by the second entry and kept by the first. */
  readonly onlySecondLost: readonly Fact[];
  /** Lost by both. */
  readonly bothLost: readonly Fact[];
}

/**
 * The texts of some facts, by kind. Keyed in two levels rather than by a joined `kind + text`
 * string: a long session loses tens of thousands of facts, and the diff runs on the page when a
 * comparison is drawn, where building that many joined keys cost more than the rest of the diff.
 */
function textsByKind(facts: readonly Fact[]): Map<FactKind, Set<string>> {
  const byKind = new Map<FactKind, Set<string>>();
  for (const fact of facts) {
    let texts = byKind.get(fact.kind);
    if (!texts) byKind.set(fact.kind, (texts = new Set()));
    texts.add(fact.text);
  }
  return byKind;
}

/**
 * The facts one entry kept and the other lost. A fact is the same fact in both lists when its
 * kind and normalised text match; a fact only one entry put at risk (the other kept that message
 * verbatim) counts as kept by the other. Lists keep the order of the lost lists given. Linear.
 *
 * @example diffLostFacts(codexRow.fidelity.lost, claudeRow.fidelity.lost).onlyFirstLost
 */
export function diffLostFacts(first: readonly Fact[], second: readonly Fact[]): LostFactsDiff {
  const firstTexts = textsByKind(first);
  const secondTexts = textsByKind(second);
  const onlyFirstLost: Fact[] = [];
  const bothLost: Fact[] = [];
  for (const fact of first) {
    if (secondTexts.get(fact.kind)?.has(fact.text)) bothLost.push(fact);
    else onlyFirstLost.push(fact);
  }
  const onlySecondLost = second.filter((fact) => !firstTexts.get(fact.kind)?.has(fact.text));
  return { onlyFirstLost, onlySecondLost, bothLost };
}
