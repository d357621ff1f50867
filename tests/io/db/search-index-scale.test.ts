import { describe, expect, it } from 'vitest';
import { parseSearchQuery, termMatches } from '#core/search/search-query.ts';
import { searchTermsOf } from '#core/search/search-terms.ts';
import type { Message } from '#core/transcript/message.ts';
import { expectOk, openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';

const MESSAGE_COUNT = 100_000;
const SESSION_COUNT = 100;
const VOCABULARY_SIZE = 5000;
const TIMED_RUNS = 5;

/** Deterministic pseudo-random numbers (a 32-bit LCG), so the corpus is the same every run. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Short chat-like messages: 5–12 words drawn with a Zipf-like skew from a made-up vocabulary
 * (a few very common words, a long tail of rare ones), one in twenty with a CJK phrase.
 */
function buildCorpus(): { messages: Message[]; vocabulary: string[] } {
  const random = seededRandom(2027);
  const syllables = ['ka', 'lo', 'mi', 'ter', 'sun', 'pra', 'vel', 'dor', 'qui', 'zen', 'ost', 'rim'];
  const vocabulary = Array.from({ length: VOCABULARY_SIZE }, (_, index) => {
    let word = '';
    for (let rest = index + 1; rest > 0; rest = Math.floor(rest / syllables.length))
      word += syllables[rest % syllables.length];
    return word;
  });
  const zipfWord = (): string => vocabulary[Math.floor(VOCABULARY_SIZE ** random()) - 1]!;
  const phrases = ['上下文压缩', '会话搜索', '工具输出', '测试失败'];
  const messages = Array.from({ length: MESSAGE_COUNT }, (_, index): Message => {
    const words = Array.from({ length: 5 + Math.floor(random() * 8) }, zipfWord);
    if (index % 20 === 0) words.push(phrases[index % phrases.length]!);
    return { role: index % 2 === 0 ? 'user' : 'assistant', content: words.join(' ') };
  });
  return { messages, vocabulary };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('search at scale', () => {
  it('answers queries over 100k stored messages exactly like a full scan', async () => {
    const { messages, vocabulary } = buildCorpus();
    const { db, repository } = openFixtureRepository('search-scale');
    const perSession = MESSAGE_COUNT / SESSION_COUNT;
    const buildStart = performance.now();
    for (let session = 0; session < SESSION_COUNT; session++) {
      const slice = messages.slice(session * perSession, (session + 1) * perSession);
      expectOk(
        await repository.createSession(
          { title: `Session ${session}`, source: 'demo', model: null, systemPrompt: null },
          slice,
        ),
      );
    }
    const buildMs = performance.now() - buildStart;
    const postingRows = await db.searchShards.count();

    const termsById = messages.map((message) => searchTermsOf(message.content as string));
    const queries = [
      vocabulary[0]!, // the most common word
      vocabulary[40]!,
      vocabulary[3000]!, // a rare word
      `${vocabulary[1]} ${vocabulary[7]}`,
      `${vocabulary[2]} ${vocabulary[500]!.slice(0, 4)}`, // AND with a prefix
      '压缩',
      'nomatchword',
    ];
    const report: string[] = [];
    for (const query of queries) {
      const terms = parseSearchQuery(query);
      const expectedCount = termsById.filter((found) =>
        terms.every((term) => found.some((candidate) => termMatches(term, candidate))),
      ).length;
      const timings: number[] = [];
      let hits = await repository.search(query);
      for (let run = 0; run < TIMED_RUNS; run++) {
        const start = performance.now();
        hits = await repository.search(query);
        timings.push(performance.now() - start);
      }
      expect(hits.length, query).toBe(Math.min(20, expectedCount));
      for (const hit of hits) {
        const found = termsById[hit.messageId - 1]!;
        expect(
          terms.every((term) => found.some((candidate) => termMatches(term, candidate))),
          query,
        ).toBe(true);
      }
      report.push(
        `  ${JSON.stringify(query)}: ${expectedCount} matches, median ${median(timings).toFixed(1)} ms`,
      );
    }
    console.log(
      [
        `search over ${MESSAGE_COUNT} messages in fake-indexeddb: built in ${(buildMs / 1000).toFixed(1)} s, ${postingRows} posting rows`,
        ...report,
      ].join('\n'),
    );
    db.close();
  }, 600_000);
});
