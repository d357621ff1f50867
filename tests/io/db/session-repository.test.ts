import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { expandMessageRows } from '#io/db/message-groups.ts';
import type { SessionEvent } from '#io/db/session-events.ts';
import {
  assistant,
  expectOk,
  FIXTURE_START_MS,
  openFixtureRepository,
  system,
  user,
} from '#tests/helpers/session-repository-fixture.ts';

const USAGE = {
  inputTokens: 100,
  outputTokens: 20,
  cacheReadTokens: 1000,
  cacheWriteTokens: 50,
  reasoningTokens: 5,
  requestCount: 1,
};

describe('createSession', () => {
  it('stores the session and its messages in one go', async () => {
    const { db, repository } = openFixtureRepository('create');
    const session = expectOk(
      await repository.createSession(
        {
          title: '  Fix   the tests ',
          source: 'chat',
          model: 'claude-sonnet-4',
          systemPrompt: 'Be brief.',
          metadata: { format: 'internal' },
          provider: 'anthropic',
          baseUrl: null,
        },
        [system('Be brief.'), user('hi'), assistant('hello')],
      ),
    );
    expect(session.id).toBe('20270115_080000_000000');
    expect(session).toMatchObject({
      title: 'Fix the tests',
      source: 'chat',
      model: 'claude-sonnet-4',
      provider: 'anthropic',
      parentSessionId: null,
      startedAt: FIXTURE_START_MS,
      endedAt: null,
      messageCount: 3,
      lastMessageAt: FIXTURE_START_MS,
      compressionCount: 0,
      inputTokens: 0,
    });
    expect(await repository.getSession(session.id)).toEqual(session);
    expect(await repository.loadMessages(session.id)).toEqual([
      system('Be brief.'),
      user('hi'),
      assistant('hello'),
    ]);
    db.close();
  });

  it('gives each session a fresh id even when the random suffix repeats', async () => {
    const { db, repository } = openFixtureRepository('create-collision', {
      now: () => FIXTURE_START_MS,
      randomHex: (() => {
        const draws = ['aaaaaa', 'aaaaaa', 'bbbbbb'];
        return () => draws.shift() ?? 'cccccc';
      })(),
    });
    const first = expectOk(
      await repository.createSession({ title: null, source: 'chat', model: null, systemPrompt: null }, []),
    );
    const second = expectOk(
      await repository.createSession({ title: null, source: 'chat', model: null, systemPrompt: null }, []),
    );
    expect([first.id, second.id]).toEqual(['20270115_080000_aaaaaa', '20270115_080000_bbbbbb']);
    db.close();
  });
});

describe('appendMessages', () => {
  it('returns increasing ids and keeps each session in append order', async () => {
    const { db, repository } = openFixtureRepository('append');
    const input = { title: null, source: 'chat', model: null, systemPrompt: null } as const;
    const first = expectOk(await repository.createSession(input, [user('a1')]));
    const second = expectOk(await repository.createSession(input, [user('b1')]));
    const ids = expectOk(await repository.appendMessages(first.id, [assistant('a2'), user('a3')]));
    expectOk(await repository.appendMessages(second.id, [assistant('b2')]));
    expectOk(await repository.appendMessages(first.id, [assistant('a4')]));
    expect(ids[1]).toBeGreaterThan(ids[0]!);
    expect((await repository.loadMessages(first.id)).map((message) => message.content)).toEqual([
      'a1',
      'a2',
      'a3',
      'a4',
    ]);
    expect((await repository.loadMessages(second.id)).map((message) => message.content)).toEqual([
      'b1',
      'b2',
    ]);
    expect((await repository.getSession(first.id))?.messageCount).toBe(4);
    db.close();
  });

  it('refuses an unknown session', async () => {
    const { db, repository } = openFixtureRepository('append-unknown');
    expect(await repository.appendMessages('nope', [user('x')])).toEqual({
      ok: false,
      error: { type: 'SessionNotFound', sessionId: 'nope' },
    });
    db.close();
  });
});

describe('loadMessages', () => {
  it('leaves out rows that are not active', async () => {
    const { db, repository } = openFixtureRepository('load-active');
    const session = expectOk(
      await repository.createSession({ title: null, source: 'chat', model: null, systemPrompt: null }, [
        user('kept'),
        assistant('rewound'),
        user('archived'),
      ]),
    );
    const rows = expandMessageRows(await db.messages.where('sessionId').equals(session.id).sortBy('id'));
    await db.messages.put({ ...rows[1]!, active: 0, compacted: 0 });
    await db.messages.put({ ...rows[2]!, active: 0, compacted: 1 });
    expect(await repository.loadMessages(session.id)).toEqual([user('kept')]);
    db.close();
  });
});

describe('loadMessageEntries', () => {
  it('pairs each live message with the id search hits report', async () => {
    const { db, repository } = openFixtureRepository('load-entries');
    const session = expectOk(
      await repository.createSession({ title: null, source: 'chat', model: null, systemPrompt: null }, [
        user('alpha'),
      ]),
    );
    const [appendedId] = expectOk(await repository.appendMessages(session.id, [assistant('needle')]));
    const entries = await repository.loadMessageEntries(session.id);
    expect(entries.map((entry) => entry.message.content)).toEqual(['alpha', 'needle']);
    const [hit] = await repository.search('needle');
    expect(entries.findIndex((entry) => entry.id === hit?.messageId)).toBe(1);
    expect(entries[1]?.id).toBe(appendedId);
    db.close();
  });
});

describe('listSessions', () => {
  it('lists the newest session first', async () => {
    const { db, repository } = openFixtureRepository('list');
    const input = { source: 'chat', model: null, systemPrompt: null } as const;
    for (const title of ['one', 'two', 'three'])
      expectOk(await repository.createSession({ ...input, title }, []));
    expect((await repository.listSessions()).map((session) => session.title)).toEqual([
      'three',
      'two',
      'one',
    ]);
    db.close();
  });
});

describe('renameSession', () => {
  it('sets a cleaned title and refuses one another session holds', async () => {
    const { db, repository } = openFixtureRepository('rename');
    const input = { source: 'chat', model: null, systemPrompt: null } as const;
    const first = expectOk(await repository.createSession({ ...input, title: 'Taken' }, []));
    const second = expectOk(await repository.createSession({ ...input, title: null }, []));
    expect(expectOk(await repository.renameSession(second.id, ' New\n name ')).title).toBe('New name');
    expect(await repository.renameSession(second.id, 'Taken')).toEqual({
      ok: false,
      error: { type: 'TitleInUse', title: 'Taken', sessionId: first.id },
    });
    expect(expectOk(await repository.renameSession(first.id, 'Taken')).title).toBe('Taken');
    expect(expectOk(await repository.renameSession(first.id, '   ')).title).toBeNull();
    expect(expectOk(await repository.renameSession(first.id, 'x'.repeat(150))).title).toBe('x'.repeat(100));
    db.close();
  });
});

describe('addUsage', () => {
  it('adds to the accumulators and records one usage event per call', async () => {
    const { db, repository } = openFixtureRepository('usage');
    const session = expectOk(
      await repository.createSession({ title: null, source: 'chat', model: 'm', systemPrompt: null }, []),
    );
    expectOk(await repository.addUsage(session.id, USAGE, 0.25, 'm'));
    const updated = expectOk(await repository.addUsage(session.id, USAGE, 0.5, 'm', { compaction: true }));
    expect(updated).toMatchObject({
      inputTokens: 200,
      outputTokens: 40,
      cacheReadTokens: 2000,
      cacheWriteTokens: 100,
      reasoningTokens: 10,
      apiCallCount: 2,
      estimatedCostUsd: 0.75,
    });
    const events = await repository.listUsageEvents(session.id);
    expect(events.map((event) => [event.costUsd, event.compaction, event.cacheReadTokens])).toEqual([
      [0.25, false, 1000],
      [0.5, true, 1000],
    ]);
    db.close();
  });

  it('lists the events of several sessions in the order they happened', async () => {
    const { db, repository } = openFixtureRepository('usage-lineage');
    const input = { title: null, source: 'chat', model: 'm', systemPrompt: null } as const;
    const first = expectOk(await repository.createSession(input, []));
    const second = expectOk(await repository.createSession(input, []));
    const other = expectOk(await repository.createSession(input, []));
    expectOk(await repository.addUsage(first.id, USAGE, 1, 'm'));
    expectOk(await repository.addUsage(other.id, USAGE, 2, 'm'));
    expectOk(await repository.addUsage(second.id, USAGE, 3, 'm'));
    expectOk(await repository.addUsage(first.id, USAGE, 4, 'm'));
    const events = await repository.listUsageEvents([second.id, first.id]);
    expect(events.map((event) => event.costUsd)).toEqual([1, 3, 4]);
    db.close();
  });
});

describe('saveCompressorState', () => {
  it('stores the state with the session', async () => {
    const { db, repository } = openFixtureRepository('compressor-state');
    const session = expectOk(
      await repository.createSession({ title: null, source: 'chat', model: null, systemPrompt: null }, []),
    );
    const state = createCompressorState({
      compressionCount: 2,
      previousSummary: 'so far',
      cooldownUntilMs: 99,
    });
    expectOk(await repository.saveCompressorState(session.id, state));
    expect(await repository.getSession(session.id)).toMatchObject({
      compressorState: state,
      compressionCount: 2,
    });
    db.close();
  });
});

describe('deleteSession', () => {
  it('removes the session, its messages, search postings, usage and outputs', async () => {
    const { db, repository } = openFixtureRepository('delete');
    const input = { title: null, source: 'chat', model: null, systemPrompt: null } as const;
    const doomed = expectOk(
      await repository.createSession(input, [user('zebra crossing'), assistant('zebra stripes')]),
    );
    const kept = expectOk(await repository.createSession(input, [user('zebra kept')]));
    expectOk(await repository.addUsage(doomed.id, USAGE, 1, 'm'));
    await db.persistedOutputs.put({
      fileName: 'x.txt',
      sessionId: doomed.id,
      toolCallId: null,
      content: 'big',
      createdAt: 0,
    });

    expectOk(await repository.deleteSession(doomed.id));
    expect(await repository.getSession(doomed.id)).toBeUndefined();
    expect(await db.messages.where('sessionId').equals(doomed.id).count()).toBe(0);
    expect(await db.usageEvents.count()).toBe(0);
    expect(await db.persistedOutputs.count()).toBe(0);
    expect((await repository.search('zebra')).map((hit) => hit.sessionId)).toEqual([kept.id]);
    const postings = (await db.searchShards.toArray()).flatMap((row) => [...row.terms.values()]);
    expect(postings.flat().length).toBeGreaterThan(0);
    const keptIds = new Set(await db.messages.toCollection().primaryKeys());
    expect(postings.every((ids) => ids.every((id) => keptIds.has(id)))).toBe(true);
    expect(await repository.deleteSession(doomed.id)).toEqual({
      ok: false,
      error: { type: 'SessionNotFound', sessionId: doomed.id },
    });
    db.close();
  });

  it('leaves a child pointing at the deleted parent, making it the root of its lineage', async () => {
    const { db, repository } = openFixtureRepository('delete-parent');
    const parent = expectOk(
      await repository.createSession({ title: 'Chain', source: 'chat', model: null, systemPrompt: null }, [
        user('a'),
      ]),
    );
    await db.persistedOutputs.put({
      fileName: 'y.txt',
      sessionId: parent.id,
      toolCallId: null,
      content: 'big',
      createdAt: 0,
    });
    const child = expectOk(
      await repository.rotateForCompression(parent.id, [user('summary')], {
        compressorState: createCompressorState({ compressionCount: 1 }),
        systemPrompt: null,
      }),
    );
    expectOk(await repository.deleteSession(parent.id));
    expect((await repository.getSession(child.id))?.parentSessionId).toBe(parent.id);
    expect((await repository.lineageRootToTip(child.id)).map((session) => session.id)).toEqual([child.id]);
    expect((await db.persistedOutputs.get('y.txt'))?.sessionId).toBe(child.id);
    db.close();
  });
});

describe('SessionRepository events', () => {
  it('announces each committed change and nothing for a refused one', async () => {
    const events: SessionEvent[] = [];
    const { db, repository } = openFixtureRepository('events', {
      events: { publish: (event) => events.push(event) },
    });
    const session = expectOk(
      await repository.createSession({ title: null, source: 'chat', model: null, systemPrompt: null }, []),
    );
    expectOk(await repository.appendMessages(session.id, [user('x')]));
    const child = expectOk(
      await repository.rotateForCompression(session.id, [user('s')], {
        compressorState: createCompressorState(),
        systemPrompt: null,
      }),
    );
    await repository.rotateForCompression(session.id, [user('s')], {
      compressorState: createCompressorState(),
      systemPrompt: null,
    });
    await repository.appendMessages('missing', [user('x')]);
    expectOk(await repository.deleteSession(child.id));
    expect(events).toEqual([
      { type: 'session-created', id: session.id },
      { type: 'session-updated', id: session.id },
      { type: 'session-rotated', oldId: session.id, newId: child.id },
      { type: 'session-deleted', id: child.id },
    ]);
    db.close();
  });
});
