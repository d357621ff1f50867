import { createFactCollector, type FactCollector } from '#core/fidelity/fact-collector.ts';
import type { Fact, FactKind } from '#core/fidelity/fact.ts';

/** A collector reading message 0, for testing one extractor. */
export function testCollector(): FactCollector {
  const collector = createFactCollector();
  collector.startMessage(0);
  return collector;
}

/** `kind: display` of every fact, for compact expectations. */
export const shown = (facts: readonly Fact[], kind?: FactKind): string[] =>
  facts
    .filter((fact) => kind === undefined || fact.kind === kind)
    .map((fact) => `${fact.kind}: ${fact.display}`);

/** The normalised texts of the facts of one kind. */
export const texts = (facts: readonly Fact[], kind: FactKind): string[] =>
  facts.filter((fact) => fact.kind === kind).map((fact) => fact.text);
