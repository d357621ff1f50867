import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { parseSearchQuery, termMatches } from '#core/search/search-query.ts';
import { searchTermsInSteps, termOccurrences } from '#core/search/search-terms.ts';
import type { Message } from '#core/transcript/message.ts';
import { expandMessageRows } from '#io/db/message-groups.ts';
import { SearchIndex, TOKENISE_STEP_CHARS } from '#io/db/search-index.ts';
import { SEARCH_BUCKET_SIZE_MESSAGES } from '#io/db/search-term-row.ts';
import { SessionRepository } from '#io/db/session-repository.ts';
import {
  assistant,
  expectOk,
  fixtureDeps,
  openFixtureRepository,
  user,
} from '#tests/helpers/session-repository-fixture.ts';

const CHAT = { source: 'chat', model: null, systemPrompt: null } as const;

const marked = (hit: { snippet: string; matches: { start: number; end: number }[] }): string => {
  let out = '';
  let cursor = 0;
  for (const { start, end } of hit.matches) {
    out += `${hit.snippet.slice(cursor, start)}«${hit.snippet.slice(start, end)}»`;
    cursor = end;
  }
  return out + hit.snippet.slice(cursor);
};

describe('search', () => {
  it('finds messages in every session, archived continuation ancestors included', async () => {
    const { db, repository } = openFixtureRepository('search-lineage');
    const root = expectOk(
      await repository.createSession({ ...CHAT, title: 'Flaky' }, [
        user('The checkout test is flaky on CI'),
        assistant('I will retry the checkout test'),
      ]),
    );
    const child = expectOk(
      await repository.rotateForCompression(
        root.id,
        [user('[CONTEXT COMPACTION] we fixed the checkout test')],
        {
          compressorState: createCompressorState({ compressionCount: 1 }),
          systemPrompt: null,
        },
      ),
    );
    const hits = await repository.search('checkout');
    expect(hits.map((hit) => [hit.sessionTitle, hit.role])).toEqual([
      ['Flaky #2', 'user'],
      ['Flaky', 'assistant'],
      ['Flaky', 'user'],
    ]);
    expect(hits[0]!.sessionId).toBe(child.id);
    expect(marked(hits[2]!)).toBe('The «checkout» test is flaky on CI');
    db.close();
  });

  it('ands the terms and lets only the last one match as a prefix', async () => {
    const { db, repository } = openFixtureRepository('search-and');
    expectOk(
      await repository.createSession({ ...CHAT, title: null }, [
        user('compress the tail'),
        user('compression of the head'),
        user('tail only'),
        user('compressed tails'),
      ]),
    );
    const contents = async (query: string) =>
      (await repository.search(query)).map((hit) => marked(hit)).reverse();
    expect(await contents('tail compr')).toEqual(['«compress» the «tail»']);
    expect(await contents('compr tail')).toEqual([]);
    expect(await contents('tails compr')).toEqual(['«compressed» «tails»']);
    expect(await contents('compression')).toEqual(['«compression» of the head']);
    expect(await contents('TAIL')).toEqual(['compress the «tail»', '«tail» only', 'compressed «tails»']);
    expect(await contents('absent words')).toEqual([]);
    expect(await contents('  ')).toEqual([]);
    db.close();
  });

  it('finds tool names, tool call arguments and CJK text', async () => {
    const { db, repository } = openFixtureRepository('search-tools');
    expectOk(
      await repository.createSession({ ...CHAT, title: null }, [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'read_file', arguments: '{"path":"src/payments.py"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', tool_name: 'read_file', content: 'def charge(): ...' },
        user('请压缩上下文'),
      ]),
    );
    expect((await repository.search('payments')).map((hit) => hit.role)).toEqual(['assistant']);
    expect((await repository.search('read_file')).map((hit) => hit.role)).toEqual(['tool', 'assistant']);
    expect((await repository.search('上下文')).map((hit) => marked(hit))).toEqual(['请压缩«上下文»']);
    expect((await repository.search('压')).length).toBe(1);
    expect((await repository.search('文上')).length).toBe(0);
    db.close();
  });

  it('limits the hits, newest first, and filters by session', async () => {
    const { db, repository } = openFixtureRepository('search-limit');
    const first = expectOk(
      await repository.createSession({ ...CHAT, title: 'A' }, [user('needle 1'), user('needle 2')]),
    );
    const second = expectOk(await repository.createSession({ ...CHAT, title: 'B' }, [user('needle 3')]));
    expect((await repository.search('needle', { limit: 2 })).map((hit) => hit.snippet)).toEqual([
      'needle 3',
      'needle 2',
    ]);
    expect(
      (await repository.search('needle', { sessionIds: [first.id] })).map((hit) => hit.sessionId),
    ).toEqual([first.id, first.id]);
    expect((await repository.search('needle', { sessionIds: [] })).length).toBe(0);
    expect((await repository.search('needle', { sessionIds: [second.id, 'missing'] })).length).toBe(1);
    db.close();
  });

  it('gives the neighbouring messages of the same session as context', async () => {
    const { db, repository } = openFixtureRepository('search-context');
    const session = expectOk(
      await repository.createSession({ ...CHAT, title: null }, [
        user('before it'),
        assistant('the needle'),
        user('after it'),
      ]),
    );
    expectOk(await repository.createSession({ ...CHAT, title: null }, [user('other session')]));
    expectOk(await repository.appendMessages(session.id, [user('much later')]));
    const [hit] = await repository.search('needle');
    expect(hit).toMatchObject({ contextBefore: 'before it', contextAfter: 'after it' });
    const [edge] = await repository.search('much later');
    expect(edge).toMatchObject({ contextBefore: 'after it', contextAfter: null });
    const [bare] = await repository.search('needle', { includeContext: false });
    expect(bare).toMatchObject({ contextBefore: null, contextAfter: null });
    db.close();
  });

  it('skips rewound rows but keeps rows archived by compaction', async () => {
    const { db, repository } = openFixtureRepository('search-flags');
    const session = expectOk(
      await repository.createSession({ ...CHAT, title: null }, [
        user('needle rewound'),
        user('needle archived'),
        user('needle live'),
      ]),
    );
    const rows = expandMessageRows(await db.messages.where('sessionId').equals(session.id).sortBy('id'));
    await db.messages.put({ ...rows[0]!, active: 0, compacted: 0 });
    await db.messages.put({ ...rows[1]!, active: 0, compacted: 1 });
    expect((await repository.search('needle')).map((hit) => hit.snippet)).toEqual([
      'needle live',
      'needle archived',
    ]);
    db.close();
  });

  it('finds appended messages', async () => {
    const { db, repository } = openFixtureRepository('search-append');
    const session = expectOk(await repository.createSession({ ...CHAT, title: null }, [user('first')]));
    expect(await repository.search('second')).toEqual([]);
    expectOk(await repository.appendMessages(session.id, [assistant('second')]));
    expect((await repository.search('second')).map((hit) => hit.snippet)).toEqual(['second']);
    db.close();
  });

  it('agrees with a brute-force scan over a random corpus', async () => {
    const words = [
      'alpha',
      'alps',
      'beta',
      'bet',
      'gamma',
      'gam',
      'delta',
      'del',
      'cut',
      'cutter',
      '上下',
      '文',
    ];
    let seed = 12345;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = (): string => words[Math.floor(random() * words.length)]!;
    const corpus: Message[] = Array.from({ length: 400 }, () =>
      user(Array.from({ length: 1 + Math.floor(random() * 6) }, pick).join(' ')),
    );
    const { db, repository } = openFixtureRepository('search-oracle');
    // Several sessions and appends, so postings span buckets and are extended in place.
    const first = expectOk(await repository.createSession({ ...CHAT, title: null }, corpus.slice(0, 150)));
    expectOk(await repository.createSession({ ...CHAT, title: null }, corpus.slice(150, 300)));
    for (let start = 300; start < 400; start += 25)
      expectOk(await repository.appendMessages(first.id, corpus.slice(start, start + 25)));
    const rows = expandMessageRows(await db.messages.toArray());
    const queries = [
      'al',
      'alps',
      'bet gam',
      'gam bet',
      'cut del',
      'delta cutter',
      '上下 a',
      '文',
      'cut cut',
      'zzz',
    ];
    for (const query of queries) {
      const terms = parseSearchQuery(query);
      const expected = rows
        .filter((row) => {
          const found = termOccurrences(row.message.content as string).map((occurrence) => occurrence.term);
          return terms.every((term) => found.some((candidate) => termMatches(term, candidate)));
        })
        .map((row) => row.id!)
        .sort((a, b) => b - a);
      const actual = (await repository.search(query, { limit: 200, includeContext: false })).map(
        (hit) => hit.messageId,
      );
      expect(actual, query).toEqual(expected.slice(0, 200));
    }
    db.close();
  });

  it('keeps posting lists in buckets of message ids', async () => {
    const { db, repository } = openFixtureRepository('search-buckets');
    const messages = Array.from({ length: SEARCH_BUCKET_SIZE_MESSAGES + 10 }, (_, index) =>
      user(`common word${index}`),
    );
    expectOk(await repository.createSession({ ...CHAT, title: null }, messages));
    // 'common' lives in shard 'c' of each bucket, beside no other term of these messages.
    const common = (await db.searchShards.toArray()).filter((row) => row.terms.has('common'));
    expect(common.map((row) => [row.bucket, row.shard, [...row.terms.keys()]])).toEqual([
      [0, 'c', ['common']],
      [1, 'c', ['common']],
    ]);
    const ids = common.map((row) => row.terms.get('common')!);
    expect(
      common.every((row, index) =>
        ids[index]!.every((id) => Math.floor(id / SEARCH_BUCKET_SIZE_MESSAGES) === row.bucket),
      ),
    ).toBe(true);
    expect(ids.flat().length).toBe(messages.length);
    expect((await repository.search('common', { limit: 500 })).length).toBe(200);
    db.close();
  });

  it('stores and finds a message holding an 8 MB unbroken run of accented letters', async () => {
    const { db, repository } = openFixtureRepository('search-huge-run');
    const run = 'e\u0301'.repeat(4_000_000);
    const session = expectOk(
      await repository.createSession({ ...CHAT, title: 'Huge' }, [
        user(`payload ${run} trailer`),
        assistant('noted'),
      ]),
    );
    expect((await repository.loadMessages(session.id))[0]!.content).toHaveLength(run.length + 16);
    expect((await repository.search('trailer')).map((hit) => hit.role)).toEqual(['user']);
    expect((await repository.search('eeee')).map((hit) => hit.role)).toEqual(['user']);
    db.close();
  });

  it('stores every message when one cannot be tokenised, leaving only that one unsearchable', async () => {
    const { db } = openFixtureRepository('search-tokeniser-fails');
    const failing = new SearchIndex(db, {
      *termsInSteps(text, stepChars) {
        if (text.includes('poison')) throw new RangeError('Maximum call stack size exceeded');
        return yield* searchTermsInSteps(text, stepChars);
      },
    });
    const repository = new SessionRepository(db, fixtureDeps({ searchIndex: failing }));
    const session = expectOk(
      await repository.createSession({ ...CHAT, title: 'Mixed' }, [
        user('first harmless message'),
        user('poison pill'),
        assistant('second harmless message'),
      ]),
    );
    expect(await repository.loadMessages(session.id)).toHaveLength(3);
    expect((await repository.search('harmless')).map((hit) => hit.role)).toEqual(['assistant', 'user']);
    expect(await repository.search('pill')).toEqual([]);
    db.close();
  });

  it('resumes a preparation inside a message, taking a step per call however late the clock', () => {
    const { db } = openFixtureRepository('search-prepare-resumes');
    let now = 0;
    const index = new SearchIndex(db, { clock: () => (now += 20) });
    const messages = [user('alpha beta '.repeat(5_000)), user('gamma'), user('')];
    const preparation = index.startPreparing(messages);
    expect(() => preparation.terms()).toThrow(/not all found/);
    let calls = 1;
    while (!preparation.advance(12)) calls++;
    // The first message is read in several steps, one per call; each later message is one step.
    expect(calls).toBeGreaterThan(10);
    expect(preparation.terms()).toEqual([['alpha', 'beta'], ['gamma'], []]);
    // With time to spare, one call does it all.
    const unhurried = new SearchIndex(db, { clock: () => 0 }).startPreparing(messages);
    expect(unhurried.advance(12)).toBe(true);
    expect(unhurried.terms()).toEqual(preparation.terms());
    db.close();
  });

  it('gives the event loop turns inside one long message while preparing its terms', async () => {
    const { db } = openFixtureRepository('search-prepare-yields');
    let now = 0;
    let turns = 0;
    // Every clock reading is 20 ms later: each step is over the 12 ms slice.
    const index = new SearchIndex(db, {
      clock: () => (now += 20),
      yieldToEventLoop: async () => void (turns += 1),
    });
    const text = 'word '.repeat(200_000);
    const [terms] = await index.prepare([user(text)]);
    expect(terms).toEqual(['word']);
    // A turn between every two steps of the message, not one for the whole million characters.
    let steps = 0;
    for (const generator = searchTermsInSteps(text, TOKENISE_STEP_CHARS); !generator.next().done;) steps++;
    expect(steps).toBeGreaterThan(200);
    expect(turns).toBeGreaterThanOrEqual(steps);
    db.close();
  });
});
