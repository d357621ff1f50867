import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import type { Message } from '#core/transcript/message.ts';
import { AppDb } from '#io/db/app-db.ts';
import { withCompactionLock } from '#io/db/compaction-lock.ts';
import { InMemoryLockManager } from '#io/db/in-memory-lock-manager.ts';
import { ROTATION_STEPS, SessionRepository, type RotationStep } from '#io/db/session-repository.ts';
import { uniqueDbName } from '#tests/helpers/open-db-at-version.ts';
import {
  assistant,
  expectOk,
  fixtureDeps,
  openFixtureRepository,
  snapshotDatabase,
  system,
  user,
} from '#tests/helpers/session-repository-fixture.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const CHAT = {
  source: 'chat',
  model: 'claude-sonnet-4',
  systemPrompt: 'You help.',
  provider: 'anthropic',
} as const;
const ORIGINAL: Message[] = [
  system('You help.'),
  user('Fix the flaky test'),
  assistant('Looking at it'),
  user('And the docs'),
];
const compressed = (summary: string): Message[] => [
  system('You help.'),
  user(`[CONTEXT COMPACTION] ${summary}`),
  user('And the docs'),
];
const info = (compressionCount: number) => ({
  compressorState: createCompressorState({
    compressionCount,
    previousSummary: `summary ${compressionCount}`,
  }),
  systemPrompt: `You help. (rebuilt ${compressionCount})`,
});

describe('rotateForCompression', () => {
  it('ends the old session and continues in a child that holds the compressed transcript', async () => {
    const { db, repository } = openFixtureRepository('rotate');
    const root = expectOk(
      await repository.createSession(
        { ...CHAT, title: 'Fix tests', metadata: { format: 'internal' } },
        ORIGINAL,
      ),
    );
    expectOk(
      await repository.addUsage(
        root.id,
        {
          inputTokens: 10,
          outputTokens: 5,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
          requestCount: 1,
        },
        0.1,
        'm',
      ),
    );

    const child = expectOk(await repository.rotateForCompression(root.id, compressed('first'), info(1)));
    const ended = await repository.getSession(root.id);
    expect(ended).toMatchObject({ endReason: 'compression', inputTokens: 10, messageCount: 4 });
    expect(ended?.endedAt).toBe(child.startedAt);
    expect(child).toMatchObject({
      title: 'Fix tests #2',
      parentSessionId: root.id,
      source: 'chat',
      model: 'claude-sonnet-4',
      provider: 'anthropic',
      metadata: { format: 'internal' },
      systemPrompt: 'You help. (rebuilt 1)',
      compressionCount: 1,
      compressorState: info(1).compressorState,
      endedAt: null,
      inputTokens: 0,
      apiCallCount: 0,
      estimatedCostUsd: 0,
      messageCount: 3,
    });
    expect(child.id).not.toBe(root.id);
    expect(await repository.loadMessages(child.id)).toEqual(compressed('first'));
    expect(await repository.loadMessages(root.id)).toEqual(ORIGINAL);
    db.close();
  });

  it('numbers the titles of a lineage and walks it from any session to the tip', async () => {
    const { db, repository } = openFixtureRepository('rotate-chain');
    const root = expectOk(await repository.createSession({ ...CHAT, title: 'Fix tests' }, ORIGINAL));
    const second = expectOk(await repository.rotateForCompression(root.id, compressed('one'), info(1)));
    expectOk(await repository.appendMessages(second.id, [assistant('more work')]));
    const third = expectOk(await repository.rotateForCompression(second.id, compressed('two'), info(2)));
    expect([second.title, third.title]).toEqual(['Fix tests #2', 'Fix tests #3']);
    expect(third.compressionCount).toBe(2);

    for (const preset of [HERMES_2026_04, HERMES_2026_07] as const) {
      for (const start of [root.id, second.id, third.id]) {
        expect(await repository.getCompressionTip(start, preset)).toBe(third.id);
        expect(await repository.resolveResumeSessionId(start, preset)).toBe(
          preset === HERMES_2026_07 || start === third.id ? third.id : start,
        );
        expect((await repository.lineageRootToTip(start, preset)).map((session) => session.id)).toEqual([
          root.id,
          second.id,
          third.id,
        ]);
      }
    }
    const lineage = await repository.loadLineageMessages(second.id);
    expect(lineage.map(({ session, messages }) => [session.title, messages.length])).toEqual([
      ['Fix tests', 4],
      ['Fix tests #2', 4],
      ['Fix tests #3', 3],
    ]);
    db.close();
  });

  it('keeps a missing title missing', async () => {
    const { db, repository } = openFixtureRepository('rotate-untitled');
    const root = expectOk(await repository.createSession({ ...CHAT, title: null }, ORIGINAL));
    expect(
      expectOk(await repository.rotateForCompression(root.id, compressed('x'), info(1))).title,
    ).toBeNull();
    db.close();
  });

  it('does not carry a branch marker to the continuation', async () => {
    const { db, repository } = openFixtureRepository('rotate-branch');
    const root = expectOk(
      await repository.createSession(
        { ...CHAT, title: null, metadata: { _branched_from: 'x', format: 'internal' } },
        ORIGINAL,
      ),
    );
    const child = expectOk(await repository.rotateForCompression(root.id, compressed('x'), info(1)));
    expect(child.metadata).toEqual({ format: 'internal' });
    expect(await repository.getCompressionTip(root.id, HERMES_2026_07)).toBe(child.id);
    db.close();
  });

  it('refuses to rotate a session that already ended and points at the tip', async () => {
    const { db, repository } = openFixtureRepository('rotate-twice');
    const root = expectOk(await repository.createSession({ ...CHAT, title: 'T' }, ORIGINAL));
    const second = expectOk(await repository.rotateForCompression(root.id, compressed('one'), info(1)));
    const third = expectOk(await repository.rotateForCompression(second.id, compressed('two'), info(2)));
    const before = await snapshotDatabase(db);
    expect(await repository.rotateForCompression(root.id, compressed('stale'), info(1))).toEqual({
      ok: false,
      error: {
        type: 'SessionAlreadyEnded',
        sessionId: root.id,
        endReason: 'compression',
        tipSessionId: third.id,
      },
    });
    expect(await snapshotDatabase(db)).toEqual(before);
    db.close();
  });

  it('refuses appends to a rotated session and points at the tip', async () => {
    const { db, repository } = openFixtureRepository('append-rotated');
    const root = expectOk(await repository.createSession({ ...CHAT, title: 'T' }, ORIGINAL));
    const child = expectOk(await repository.rotateForCompression(root.id, compressed('one'), info(1)));
    expect(await repository.appendMessages(root.id, [user('late turn')])).toEqual({
      ok: false,
      error: {
        type: 'SessionAlreadyEnded',
        sessionId: root.id,
        endReason: 'compression',
        tipSessionId: child.id,
      },
    });
    expect(await repository.loadMessages(root.id)).toEqual(ORIGINAL);
    db.close();
  });

  it('refuses an unknown session', async () => {
    const { db, repository } = openFixtureRepository('rotate-unknown');
    expect(await repository.rotateForCompression('nope', [], info(1))).toEqual({
      ok: false,
      error: { type: 'SessionNotFound', sessionId: 'nope' },
    });
    db.close();
  });
});

describe('rotateForCompression crash consistency', () => {
  const interruptions = [
    ...ROTATION_STEPS.map((step) => ({ step, how: 'throws' as const })),
    ...ROTATION_STEPS.map((step) => ({ step, how: 'aborts' as const })),
  ];

  for (const { step, how } of interruptions) {
    it(`leaves the old session live and untouched when the transaction ${how} after '${step}'`, async () => {
      let faultAt: RotationStep | null = step;
      const { db, repository } = openFixtureRepository(`crash-${how}-${step}`, {
        onRotationStep: (reached) => {
          if (reached !== faultAt) return;
          // A thrown error and an aborted transaction (closed tab, browser abort) must both roll back.
          if (how === 'throws') throw new Error(`crash after ${reached}`);
          Dexie.currentTransaction?.abort();
        },
      });
      const root = expectOk(await repository.createSession({ ...CHAT, title: 'Crash' }, ORIGINAL));
      const before = await snapshotDatabase(db);

      await expect(repository.rotateForCompression(root.id, compressed('lost'), info(1))).rejects.toThrow();
      expect(await snapshotDatabase(db)).toEqual(before);
      expect(await repository.getCompressionTip(root.id)).toBe(root.id);
      expect((await repository.search('compaction')).length).toBe(0);

      // The next attempt writes the complete chain.
      faultAt = null;
      const child = expectOk(await repository.rotateForCompression(root.id, compressed('kept'), info(1)));
      const after = await snapshotDatabase(db);
      expect(after.sessions).toHaveLength(2);
      expect(await repository.getCompressionTip(root.id)).toBe(child.id);
      expect(await repository.loadMessages(child.id)).toEqual(compressed('kept'));
      expect((await repository.search('compaction kept')).map((hit) => hit.sessionId)).toEqual([child.id]);
      db.close();
    });
  }
});

describe('two tabs compacting one session', () => {
  const openTwoTabs = (label: string) => {
    const name = uniqueDbName(label);
    const first = new AppDb(name);
    const second = new AppDb(name);
    let draw = 0;
    const sharedRandom = { randomHex: (bytes: number) => (draw++).toString(16).padStart(bytes * 2, '0') };
    return {
      first,
      second,
      tabA: new SessionRepository(first, fixtureDeps(sharedRandom)),
      tabB: new SessionRepository(second, fixtureDeps(sharedRandom)),
    };
  };

  it('lets exactly one tab rotate while the other is told a compaction is in progress', async () => {
    const { first, second, tabA, tabB } = openTwoTabs('two-tabs-lock');
    const locks = new InMemoryLockManager();
    const root = expectOk(await tabA.createSession({ ...CHAT, title: 'Shared' }, ORIGINAL));
    const compact = (tab: SessionRepository, summary: string) =>
      withCompactionLock(
        root.id,
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 20)); // the summary call
          return tab.rotateForCompression(root.id, compressed(summary), info(1));
        },
        locks,
      );
    const [fromA, fromB] = await Promise.all([compact(tabA, 'by A'), compact(tabB, 'by B')]);
    expect(fromA.ok && fromA.value.ok).toBe(true);
    expect(fromB).toMatchObject({ ok: false, error: { type: 'CompactionInProgress', sessionId: root.id } });
    expect(await second.sessions.count()).toBe(2);

    // Tab B, still on the old id, tries again later: the lock is free but the session has moved on.
    const retry = await compact(tabB, 'stale');
    const tip = await tabB.getCompressionTip(root.id);
    expect(retry).toMatchObject({
      ok: true,
      value: { ok: false, error: { type: 'SessionAlreadyEnded', tipSessionId: tip } },
    });
    expect(await first.sessions.count()).toBe(2);
    first.close();
    second.close();
  });

  it('still rotates once when both skip the lock: the write transaction re-checks', async () => {
    const { first, second, tabA, tabB } = openTwoTabs('two-tabs-no-lock');
    const root = expectOk(await tabA.createSession({ ...CHAT, title: 'Shared' }, ORIGINAL));
    const results = await Promise.all([
      tabA.rotateForCompression(root.id, compressed('by A'), info(1)),
      tabB.rotateForCompression(root.id, compressed('by B'), info(1)),
    ]);
    const winners = results.filter((result) => result.ok);
    const losers = results.filter((result) => !result.ok);
    expect(winners).toHaveLength(1);
    expect(losers).toEqual([
      {
        ok: false,
        error: {
          type: 'SessionAlreadyEnded',
          sessionId: root.id,
          endReason: 'compression',
          tipSessionId: winners[0]!.ok ? winners[0]!.value.id : '',
        },
      },
    ]);
    expect(await first.sessions.where('parentSessionId').equals(root.id).count()).toBe(1);
    first.close();
    second.close();
  });
});

describe('exportLineage', () => {
  const chain = async (label: string) => {
    const { db, repository } = openFixtureRepository(label);
    const root = expectOk(await repository.createSession({ ...CHAT, title: 'Export me' }, ORIGINAL));
    const child = expectOk(await repository.rotateForCompression(root.id, compressed('one'), info(1)));
    return { db, repository, root, child };
  };

  it('writes one Hermes session row per session with the lineage columns', async () => {
    const { db, repository, root, child } = await chain('export-hermes');
    const lines = (await repository.exportLineage(child.id, 'hermes-jsonl')).trim().split('\n');
    const rows = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.map((row) => [row.id, row.parent_session_id, row.end_reason, row.title])).toEqual([
      [root.id, null, 'compression', 'Export me'],
      [child.id, root.id, null, 'Export me #2'],
    ]);
    expect(rows[0]).toMatchObject({
      system_prompt: 'You help.',
      started_at: root.startedAt / 1000,
      billing_provider: 'anthropic',
    });
    expect((rows[0]!.messages as unknown[]).length).toBe(3);
    db.close();
  });

  it('writes the internal format so that importing it gives the chain back', async () => {
    const { db, repository, root, child } = await chain('export-internal');
    const imported = importTranscript(await repository.exportLineage(root.id, 'internal-json'));
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    const { messages, metadata } = imported.value.transcript;
    expect(messages).toEqual([...ORIGINAL, ...compressed('one')]);
    expect(metadata.lineage?.map((entry) => entry.sessionId)).toEqual([root.id, child.id]);
    expect(metadata.segments?.map((segment) => [segment.messageIndex, segment.label])).toEqual([
      [0, 'Export me'],
      [4, 'Export me #2'],
    ]);
    db.close();
  });

  it('writes Markdown with a section per session and ShareGPT with a line per session', async () => {
    const { db, repository } = await chain('export-other');
    const markdown = await repository.exportLineage(root(await repository.listSessions()), 'markdown');
    expect(markdown).toContain('*Export me*');
    expect(markdown).toContain('*Export me #2*');
    expect(markdown).toContain('[CONTEXT COMPACTION] one');
    const sharegpt = await repository.exportLineage(root(await repository.listSessions()), 'sharegpt', {
      timestampIso: '2027-01-15T08:00:00',
    });
    expect(sharegpt.trim().split('\n')).toHaveLength(2);
    db.close();
  });
});

const root = (sessions: ReadonlyArray<{ id: string; parentSessionId: string | null }>): string =>
  sessions.find((session) => session.parentSessionId === null)!.id;
