import { describe, expect, it } from 'vitest';
import { createFactCollector, MAX_FACTS_PER_MESSAGE } from '#core/fidelity/fact-collector.ts';

describe('createFactCollector', () => {
  it('deduplicates by kind and normalised text, keeping the first message and counting repeats', () => {
    const collector = createFactCollector();
    collector.startMessage(3);
    collector.add('path', './src/App.ts', 'src/app.ts');
    collector.startMessage(7);
    collector.add('path', 'src/app.ts');
    collector.add('identifier', 'src/app.ts');
    expect(collector.facts()).toEqual([
      { kind: 'path', text: 'src/app.ts', display: './src/App.ts', messageIndex: 3, count: 2 },
      { kind: 'identifier', text: 'src/app.ts', display: 'src/app.ts', messageIndex: 7, count: 1 },
    ]);
  });

  it('collapses whitespace in the display and derives the text from it', () => {
    const collector = createFactCollector();
    collector.startMessage(0);
    collector.add('ask', '  Fix   the\nLogin  ');
    expect(collector.facts()).toEqual([
      { kind: 'ask', text: 'fix the login', display: 'Fix the Login', messageIndex: 0, count: 1 },
    ]);
  });

  it('replaces a text the display does not contain by the display’s own', () => {
    const collector = createFactCollector();
    collector.startMessage(0);
    collector.add('error', 'KeyError: id', 'something else');
    expect(collector.facts()[0]?.text).toBe('keyerror: id');
  });

  it('takes at most the per-message limit of new facts of a kind from one message', () => {
    const collector = createFactCollector();
    collector.startMessage(0);
    // Repeats of one fact use up no room for others.
    for (let index = 0; index < 30; index++) collector.add('error', 'KeyError: same');
    for (let index = 0; index < 50; index++) collector.add('error', `ValueError: case ${index}`);
    collector.startMessage(1);
    collector.add('error', 'ValueError: next message');
    collector.add('error', 'KeyError: same');
    const facts = collector.facts();
    expect(facts).toHaveLength(MAX_FACTS_PER_MESSAGE.error + 1);
    expect(facts[0]).toMatchObject({ display: 'KeyError: same', count: 31 });
    expect(facts.at(-1)).toMatchObject({ display: 'ValueError: next message', messageIndex: 1 });
  });

  it('ignores texts shorter than two characters', () => {
    const collector = createFactCollector();
    collector.startMessage(0);
    collector.add('identifier', ' x ');
    expect(collector.facts()).toEqual([]);
  });
});
