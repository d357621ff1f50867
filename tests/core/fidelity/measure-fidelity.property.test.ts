/**
 * Properties of measureFidelity, with fast-check over compactions: a transcript (the shared
 * arbitrary, which shrinks to a few messages, or a demo session of 60–240 messages with facts of
 * every kind), a head, a middle to summarise and a tail. A failure prints the shrunk compaction
 * with the `seed` and `path` that replay it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { extractFacts } from '#core/fidelity/extract-facts.ts';
import type { Fact } from '#core/fidelity/fact.ts';
import { findSurvivingFacts } from '#core/fidelity/find-surviving-facts.ts';
import { measureFidelity } from '#core/fidelity/measure-fidelity.ts';
import type { Message } from '#core/transcript/message.ts';
import { arbitraryTranscript } from '#tests/helpers/arbitrary-transcript.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 20);

interface Compaction {
  readonly messages: readonly Message[];
  readonly headEnd: number;
  readonly tailStart: number;
}

/** A point in [low, high] chosen by `permille`. */
const between = (low: number, high: number, permille: number): number =>
  low + Math.floor(((Math.max(low, high) - low) * permille) / 1000);

/**
 * Short generated sessions; the middle always holds the first user ask, so it has facts.
 * The tail starts in the second half.
 */
const generatedCompaction: fc.Arbitrary<Compaction> = fc
  .record({
    transcript: arbitraryTranscript({ minTurns: 2, maxTurns: 10 }),
    head: fc.integer({ min: 1, max: 4 }),
    tail: fc.nat(1000),
  })
  .map(({ transcript: { messages, asks }, head, tail }) => {
    const headEnd = Math.min(head, asks[0]!);
    const low = Math.max(asks[0]! + 1, Math.floor(messages.length / 2));
    return { messages, headEnd, tailStart: between(low, messages.length - 1, tail) };
  });

/** Demo sessions: paths, errors, commands, URLs, decisions and code, as a real agent writes them. */
const demoCompaction: fc.Arbitrary<Compaction> = fc
  .record({
    seed: fc.nat(100_000),
    messageCount: fc.integer({ min: 60, max: 240 }),
    head: fc.integer({ min: 1, max: 4 }),
    tail: fc.nat(1000),
  })
  .map(({ seed, messageCount, head, tail }) => {
    const { messages } = generateAgentTranscript({ messageCount, seed });
    return {
      messages,
      headEnd: head,
      tailStart: between(Math.floor(messages.length / 2), messages.length - 4, tail),
    };
  });

const arbitraryCompaction = fc.oneof({ withCrossShrink: true }, generatedCompaction, demoCompaction);

function factsOf({ messages, headEnd, tailStart }: Compaction): Fact[] {
  const middle = Array.from({ length: tailStart - headEnd }, (_, index) => headEnd + index);
  return extractFacts(messages, middle);
}

/** The compaction's context with `summary` in place of the middle. */
const withSummary = ({ messages, headEnd, tailStart }: Compaction, summary: string): Message[] => [
  ...messages.slice(0, headEnd),
  { role: 'user', content: summary },
  ...messages.slice(tailStart),
];

describe('measureFidelity properties', () => {
  it('a compaction that keeps everything scores 1.0', () => {
    fc.assert(
      fc.property(arbitraryCompaction, (compaction) => {
        const facts = factsOf(compaction);
        expect(facts.length).toBeGreaterThan(0);
        expect(measureFidelity(facts, { messages: compaction.messages }).score).toBe(1);
      }),
      { numRuns: RUNS },
    );
  });

  it('an empty summary of a middle with facts scores < 1, and the system prompt alone keeps almost nothing', () => {
    fc.assert(
      fc.property(arbitraryCompaction, (compaction) => {
        const facts = factsOf(compaction);
        expect(facts.length).toBeGreaterThan(0);
        expect(measureFidelity(facts, { messages: withSummary(compaction, '') }).score).toBeLessThan(1);
        const system = compaction.messages.filter((message) => message.role === 'system');
        const bare = measureFidelity(facts, { messages: [...system, { role: 'user', content: '' }] });
        expect(bare.score).toBeLessThan(0.1);
      }),
      { numRuns: RUNS },
    );
  });

  it('adding a fact’s display to the summary keeps that fact and never lowers the score', () => {
    const additions = fc.array(fc.record({ fact: fc.nat(), onNewLine: fc.boolean() }), {
      minLength: 1,
      maxLength: 25,
    });
    fc.assert(
      fc.property(arbitraryCompaction, additions, (compaction, picks) => {
        const facts = factsOf(compaction);
        let summary = '';
        let score = measureFidelity(facts, { messages: withSummary(compaction, summary) }).score;
        for (const pick of picks) {
          const fact = facts[pick.fact % facts.length]!;
          summary += `${pick.onNewLine ? '\n- ' : ' '}${fact.display}`;
          const report = measureFidelity(facts, { messages: withSummary(compaction, summary) });
          expect(report.score).toBeGreaterThanOrEqual(score);
          expect(report.lost).not.toContain(fact);
          score = report.score;
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('adding any text to the summary never lowers the score', () => {
    const snippets = fc.array(
      fc.record({ message: fc.nat(), start: fc.nat(), length: fc.integer({ min: 1, max: 400 }) }),
      { minLength: 1, maxLength: 10 },
    );
    fc.assert(
      fc.property(arbitraryCompaction, snippets, (compaction, picks) => {
        const facts = factsOf(compaction);
        let summary = 'Summary of earlier work.';
        let score = measureFidelity(facts, { messages: withSummary(compaction, summary) }).score;
        for (const pick of picks) {
          const source = compaction.messages[pick.message % compaction.messages.length]!;
          const text = typeof source.content === 'string' ? source.content : '';
          const start = pick.start % Math.max(1, text.length);
          summary += `\n${text.slice(start, start + pick.length)}`;
          const next = measureFidelity(facts, { messages: withSummary(compaction, summary) }).score;
          expect(next).toBeGreaterThanOrEqual(score);
          score = next;
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('every fact survives on its own display alone', () => {
    fc.assert(
      fc.property(arbitraryCompaction, (compaction) => {
        const facts = factsOf(compaction);
        const lost = facts.filter((fact) => !findSurvivingFacts([fact], [fact.display])[0]);
        expect(lost.map((fact) => fact.display)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});
