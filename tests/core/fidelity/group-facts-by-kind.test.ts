import { describe, expect, it } from 'vitest';
import type { Fact } from '#core/fidelity/fact.ts';
import { groupFactsByKind } from '#core/fidelity/group-facts-by-kind.ts';

const fact = (kind: Fact['kind'], text: string): Fact => ({
  kind,
  text,
  display: text,
  messageIndex: 1,
  count: 1,
});

describe('groupFactsByKind', () => {
  it('groups in the order of the fact kinds, keeping each group in the order given', () => {
    const facts = [
      fact('ask', 'fix the parser'),
      fact('path', 'b.py'),
      fact('decision', 'use sqlite'),
      fact('path', 'a.py'),
    ];
    expect(
      groupFactsByKind(facts).map((group) => [group.kind, group.facts.map((item) => item.text)]),
    ).toEqual([
      ['path', ['b.py', 'a.py']],
      ['ask', ['fix the parser']],
      ['decision', ['use sqlite']],
    ]);
  });

  it('has no groups for no facts', () => {
    expect(groupFactsByKind([])).toEqual([]);
  });
});
