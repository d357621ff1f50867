import type { Fact } from '../fidelity/fact.ts';

/** What two compactions of the same transcript lost, side by side. */
export interface LostFactsDiff {
  /** Lost by the first entry and kept by the second. */
  readonly onlyFirstLost: readonly Fact[];
  /** Lost by the second entry and kept by the first. */
  readonly onlySecondLost: readonly Fact[];
  /** Lost by both. */
  readonly bothLost: readonly Fact[];
}

const factKey = (fact: Fact): string => `${fact.kind}\u0000${fact.text}`;

/**
 * The facts one entry kept and the other lost. A fact is the same fact in both lists when its
 * kind and normalised text match; a fact only one entry put at risk (the other kept that message
 * verbatim) counts as kept by the other. Lists keep the order of the lost lists given.
 *
 * @example diffLostFacts(codexRow.fidelity.lost, claudeRow.fidelity.lost).onlyFirstLost
 */
export function diffLostFacts(first: readonly Fact[], second: readonly Fact[]): LostFactsDiff {
  const firstKeys = new Set(first.map(factKey));
  const secondKeys = new Set(second.map(factKey));
  return {
    onlyFirstLost: first.filter((fact) => !secondKeys.has(factKey(fact))),
    onlySecondLost: second.filter((fact) => !firstKeys.has(factKey(fact))),
    bothLost: first.filter((fact) => secondKeys.has(factKey(fact))),
  };
}
