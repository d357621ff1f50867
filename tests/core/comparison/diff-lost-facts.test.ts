import { describe, expect, it } from 'vitest';
import { diffLostFacts } from '#core/comparison/diff-lost-facts.ts';
import type { Fact } from '#core/fidelity/fact.ts';

const fact = (kind: Fact['kind'], text: string, messageIndex = 1): Fact => ({
  kind,
  text,
  display: text,
  messageIndex,
  count: 1,
});

describe('diffLostFacts', () => {
  it('splits two lost lists into lost by one only and lost by both, by kind and text', () => {
    const first = [fact('path', 'app/main.py'), fact('error', 'keyerror: id'), fact('command', 'pytest')];
    // The same path at another message is the same fact; `pytest` as an identifier is another fact.
    const second = [
      fact('path', 'app/main.py', 9),
      fact('identifier', 'pytest'),
      fact('url', 'https://x.dev'),
    ];
    const diff = diffLostFacts(first, second);
    expect(diff.onlyFirstLost.map((item) => `${item.kind}:${item.text}`)).toEqual([
      'error:keyerror: id',
      'command:pytest',
    ]);
    expect(diff.onlySecondLost.map((item) => `${item.kind}:${item.text}`)).toEqual([
      'identifier:pytest',
      'url:https://x.dev',
    ]);
    expect(diff.bothLost.map((item) => item.text)).toEqual(['app/main.py']);
  });

  it('is empty for two entries that lost the same facts', () => {
    const lost = [fact('ask', 'fix the parser')];
    expect(diffLostFacts(lost, lost)).toEqual({ onlyFirstLost: [], onlySecondLost: [], bothLost: lost });
  });
});
