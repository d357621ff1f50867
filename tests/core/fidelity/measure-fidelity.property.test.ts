import { describe, expect, it } from 'vitest';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { createSeededRandom } from '#core/demo/seeded-random.ts';
import { extractFacts } from '#core/fidelity/extract-facts.ts';
import { findSurvivingFacts } from '#core/fidelity/find-surviving-facts.ts';
import { measureFidelity } from '#core/fidelity/measure-fidelity.ts';
import type { Message } from '#core/transcript/message.ts';

const SEEDS = Array.from({ length: 12 }, (_, index) => index + 1);

/** A seeded compaction: a generated session, a head, a middle to summarise and a tail. */
function compaction(seed: number) {
  const random = createSeededRandom(seed * 7919);
  const messages = generateAgentTranscript({ messageCount: random.integer(60, 240), seed }).messages;
  const headEnd = random.integer(1, 4);
  const tailStart = random.integer(Math.floor(messages.length / 2), messages.length - 4);
  const middle = Array.from({ length: tailStart - headEnd }, (_, index) => headEnd + index);
  const facts = extractFacts(messages, middle);
  const withSummary = (summary: string): Message[] => [
    ...messages.slice(0, headEnd),
    { role: 'user', content: summary },
    ...messages.slice(tailStart),
  ];
  return { random, messages, headEnd, tailStart, facts, withSummary };
}

describe('measureFidelity properties (seeded)', () => {
  it.each(SEEDS)('a compaction that keeps everything scores 1.0 (seed %i)', (seed) => {
    const { messages, facts } = compaction(seed);
    expect(facts.length).toBeGreaterThan(0);
    expect(measureFidelity(facts, { messages }).score).toBe(1);
  });

  it.each(SEEDS)('an empty summary of a non-empty middle with facts scores < 1 (seed %i)', (seed) => {
    const { messages, facts, withSummary } = compaction(seed);
    expect(facts.length).toBeGreaterThan(0);
    expect(measureFidelity(facts, { messages: withSummary('') }).score).toBeLessThan(1);
    // With nothing kept but the system prompt, almost nothing survives.
    const bare = measureFidelity(facts, { messages: [messages[0]!, { role: 'user', content: '' }] });
    expect(bare.score).toBeLessThan(0.1);
  });

  it.each(SEEDS)(
    'adding a fact’s display to the summary keeps that fact and never lowers the score (seed %i)',
    (seed) => {
      const { random, facts, withSummary } = compaction(seed);
      let summary = '';
      let score = measureFidelity(facts, { messages: withSummary(summary) }).score;
      for (let step = 0; step < 25; step++) {
        const fact = random.pick(facts);
        summary += `${random.chance(0.5) ? '\n- ' : ' '}${fact.display}`;
        const report = measureFidelity(facts, { messages: withSummary(summary) });
        expect(report.score).toBeGreaterThanOrEqual(score);
        expect(report.lost).not.toContain(fact);
        score = report.score;
      }
    },
  );

  it.each(SEEDS)('adding any text to the summary never lowers the score (seed %i)', (seed) => {
    const { random, messages, facts, withSummary } = compaction(seed);
    let summary = 'Summary of earlier work.';
    let score = measureFidelity(facts, { messages: withSummary(summary) }).score;
    for (let step = 0; step < 10; step++) {
      const source = random.pick(messages);
      const text = typeof source.content === 'string' ? source.content : '';
      const start = random.integer(0, Math.max(0, text.length - 1));
      summary += `\n${text.slice(start, start + random.integer(1, 400))}`;
      const next = measureFidelity(facts, { messages: withSummary(summary) }).score;
      expect(next).toBeGreaterThanOrEqual(score);
      score = next;
    }
  });

  it.each(SEEDS)('every fact survives on its own display alone (seed %i)', (seed) => {
    const { facts } = compaction(seed);
    const survived = facts.map((fact) => findSurvivingFacts([fact], [fact.display])[0]);
    expect(facts.filter((_, index) => !survived[index]).map((fact) => fact.display)).toEqual([]);
  });
});
