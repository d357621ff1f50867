import { FACT_KINDS, type Fact, type FactKind } from './fact.ts';

/** The facts of one kind, in the order given. */
export interface FactGroup {
  readonly kind: FactKind;
  readonly facts: readonly Fact[];
}

/**
 * Facts grouped by kind, in `FACT_KINDS` order, leaving out kinds with none. One pass: a long
 * session's lost lists run to tens of thousands of facts, grouped on the page as they are drawn.
 *
 * @example groupFactsByKind(report.lost).map((group) => group.kind) // ['path', 'ask']
 */
export function groupFactsByKind(facts: readonly Fact[]): FactGroup[] {
  const byKind = new Map<FactKind, Fact[]>();
  for (const fact of facts) {
    const group = byKind.get(fact.kind);
    if (group) group.push(fact);
    else byKind.set(fact.kind, [fact]);
  }
  return FACT_KINDS.flatMap((kind) => {
    const group = byKind.get(kind);
    return group ? [{ kind, facts: group }] : [];
  });
}
