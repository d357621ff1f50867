/**
 * Compaction epochs in the session store (issue 15): in-place compaction as Hermes 2026-07 does
 * it, undo and redo in both modes, each in one transaction that survives a crash at any step,
 * and two tabs that never undo twice. Nothing is ever deleted: the row count only grows.
 */
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import type { CompactionEpochDetails } from '#core/sessions/compaction-epoch.ts';
import type { Message } from '#core/transcript/message.ts';
import { AppDb } from '#io/db/app-db.ts';
import {
  IN_PLACE_STEPS,
  REDO_IN_PLACE_STEPS,
  ROTATION_EPOCH_STEPS,
  UNDO_IN_PLACE_STEPS,
  type EpochStep,
} from '#io/db/compaction-epoch-writes.ts';
import { withCompactionLock } from '#io/db/compaction-lock.ts';
import { InMemoryLockManager } from '#io/db/in-memory-lock-manager.ts';
import { expandMessageRows } from '#io/db/message-groups.ts';
import { SessionRepository, type SessionRepositoryDeps } from '#io/db/session-repository.ts';
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
import { IN_PLACE_EPOCH_SETTINGS } from '#tests/helpers/epoch-settings-fixture.ts';

const CHAT = {
  source: 'chat',
  model: 'claude-sonnet-4',
  systemPrompt: 'You help.',
  provider: 'anthropic',
} as const;
const ORIGINAL: Message[] = [
  system('You help.'),
  user('Fix the flaky test in parser_spec'),
  assistant('The flake comes from a shared temp dir'),
  user('And the docs for quokka-9'),
  assistant('Docs updated'),
];
/** What a compaction of `live` leaves: the system prompt, a summary, the last message. */
const compacted = (live: readonly Message[], summary: string): Message[] => [
  live[0]!,
  user(`[CONTEXT COMPACTION] ${summary}`),
  live[live.length - 1]!,
];
const details = (summary: string): CompactionEpochDetails => ({
  reason: 'manual',
  attemptId: null,
  reviewed: true,
  summaries: [{ body: summary, span: { start: 1, end: 4, kind: 'middle' }, edited: false, fallback: false }],
  boundaries: {
    messagesBefore: 5,
    messagesAfter: 3,
    head: 1,
    middle: 3,
    tail: 1,
    kept: 2,
    pruned: 0,
    summarized: 3,
    dropped: 0,
    spans: [{ start: 1, end: 4, kind: 'middle' }],
  },
  settings: IN_PLACE_EPOCH_SETTINGS,
  tokensBefore: 100,
  tokensAfter: 40,
  assessment: null,
});
const state = (count: number) =>
  createCompressorState({ compressionCount: count, previousSummary: `summary ${count}` });
const inPlace = (count: number, summary: string) => ({
  compressorState: state(count),
  systemPrompt: `You help. (after ${count})`,
  epoch: details(summary),
});
const rotation = (count: number, summary: string) => ({
  compressorState: state(count),
  systemPrompt: `You help. (after ${count})`,
  epoch: details(summary),
});

async function messageRowCount(db: AppDb): Promise<number> {
  return db.messages.count();
}

describe('compactInPlace', () => {
  it('keeps the session id, archives the live rows and inserts the compacted list in one transaction', async () => {
    const { db, repository } = openFixtureRepository('in-place', { preset: () => HERMES_2026_07 });
    const session = expectOk(await repository.createSession({ ...CHAT, title: 'Flaky' }, ORIGINAL));
    const { session: after, epoch } = expectOk(
      await repository.compactInPlace(session.id, compacted(ORIGINAL, 'first'), inPlace(1, 'first')),
    );
    expect(after).toMatchObject({
      id: session.id,
      title: 'Flaky',
      parentSessionId: null,
      endedAt: null,
      messageCount: 3,
      compressionCount: 1,
      compressorState: state(1),
      systemPrompt: 'You help. (after 1)',
      historyRevision: 1,
    });
    expect(await repository.loadMessages(session.id)).toEqual(compacted(ORIGINAL, 'first'));
    const rows = expandMessageRows(await db.messages.where('sessionId').equals(session.id).toArray());
    expect(rows.map((row) => [row.active, row.compacted])).toEqual([
      ...ORIGINAL.map(() => [0, 1]),
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
    expect(epoch).toMatchObject({
      number: 1,
      sessionId: session.id,
      childSessionId: null,
      mode: 'in-place',
      status: 'applied',
      reason: 'manual',
    });
    // One session, no continuation: the lineage is the session itself.
    expect((await repository.lineageRootToTip(session.id)).map((row) => row.id)).toEqual([session.id]);
    expect(await repository.getCompressionTip(session.id, HERMES_2026_07)).toBe(session.id);
    db.close();
  });

  it('still lets search and the lineage export see the archived turns', async () => {
    const { db, repository } = openFixtureRepository('in-place-search');
    const session = expectOk(await repository.createSession({ ...CHAT, title: 'Quokka' }, ORIGINAL));
    expectOk(await repository.compactInPlace(session.id, compacted(ORIGINAL, 'gist'), inPlace(1, 'gist')));
    const hits = await repository.search('quokka');
    expect(hits.map((hit) => [hit.sessionId, hit.snippet])).toEqual([
      [session.id, 'And the docs for quokka-9'],
    ]);
    const lineage = await repository.loadLineageMessages(session.id);
    expect(lineage).toHaveLength(1);
    expect(lineage[0]!.messages).toEqual([...ORIGINAL, ...compacted(ORIGINAL, 'gist')]);
    const markdown = await repository.exportLineage(session.id, 'markdown');
    expect(markdown).toContain('shared temp dir');
    expect(markdown).toContain('[CONTEXT COMPACTION] gist');
    db.close();
  });

  it('refuses when the live rows are not the ones the compaction read', async () => {
    const { db, repository } = openFixtureRepository('in-place-basis');
    const session = expectOk(await repository.createSession({ ...CHAT, title: 'Basis' }, ORIGINAL));
    const basis = (await repository.loadMessageEntries(session.id)).map((entry) => entry.id);
    expectOk(await repository.appendMessages(session.id, [user('a turn from another tab')]));
    const before = await snapshotDatabase(db);
    const refused = await repository.compactInPlace(session.id, compacted(ORIGINAL, 'stale'), {
      ...inPlace(1, 'stale'),
      basisMessageIds: basis,
    });
    expect(refused).toMatchObject({ ok: false, error: { type: 'HistoryChanged', sessionId: session.id } });
    expect(await snapshotDatabase(db)).toEqual(before);
    db.close();
  });

  it('compacts three times, shows three epochs and undoes back to the original with every message intact', async () => {
    const { db, repository } = openFixtureRepository('in-place-three', { preset: () => HERMES_2026_07 });
    const session = expectOk(await repository.createSession({ ...CHAT, title: 'Three' }, ORIGINAL));
    const turns: Message[][] = [];
    let live = ORIGINAL;
    for (let count = 1; count <= 3; count++) {
      expectOk(
        await repository.compactInPlace(
          session.id,
          compacted(live, `s${count}`),
          inPlace(count, `s${count}`),
        ),
      );
      const turn = [user(`question ${count}`), assistant(`answer ${count}`)];
      expectOk(await repository.appendMessages(session.id, turn));
      turns.push(turn);
      live = await repository.loadMessages(session.id);
    }
    const epochs = await repository.listCompactions([session.id]);
    expect(epochs.map((epoch) => [epoch.number, epoch.mode, epoch.status])).toEqual([
      [1, 'in-place', 'applied'],
      [2, 'in-place', 'applied'],
      [3, 'in-place', 'applied'],
    ]);
    const rowsAfterCompactions = await messageRowCount(db);

    for (let undo = 3; undo >= 1; undo--) {
      const change = expectOk(await repository.undoCompaction(session.id));
      expect(change.epoch).toMatchObject({ number: undo, status: 'undone' });
    }
    // The original history, then every turn stored after each compaction, in order.
    expect(await repository.loadMessages(session.id)).toEqual([...ORIGINAL, ...turns.flat()]);
    expect((await repository.getSession(session.id))?.compressorState).toBeNull();
    expect((await repository.getSession(session.id))?.messageCount).toBe(ORIGINAL.length + 6);
    expect(await repository.undoCompaction(session.id)).toMatchObject({
      ok: false,
      error: { type: 'NothingToUndo' },
    });
    expect(await messageRowCount(db)).toBe(rowsAfterCompactions);

    // Redo walks forward again to the same live history.
    for (let redo = 1; redo <= 3; redo++)
      expect(expectOk(await repository.redoCompaction(session.id)).epoch.number).toBe(redo);
    expect(await repository.loadMessages(session.id)).toEqual(live);
    expect((await repository.getSession(session.id))?.compressorState).toEqual(state(3));
    db.close();
  });

  it('keeps turns stored after an undo when the compaction is redone', async () => {
    const { db, repository } = openFixtureRepository('in-place-redo-turns');
    const session = expectOk(await repository.createSession({ ...CHAT, title: 'Redo' }, ORIGINAL));
    expectOk(await repository.compactInPlace(session.id, compacted(ORIGINAL, 'one'), inPlace(1, 'one')));
    expectOk(await repository.undoCompaction(session.id));
    expectOk(await repository.appendMessages(session.id, [user('after undo')]));
    expectOk(await repository.redoCompaction(session.id));
    expect(await repository.loadMessages(session.id)).toEqual([
      ...compacted(ORIGINAL, 'one'),
      user('after undo'),
    ]);
    db.close();
  });

  it('supersedes an undone compaction when a new one is committed on the restored history', async () => {
    const { db, repository } = openFixtureRepository('in-place-supersede');
    const session = expectOk(await repository.createSession({ ...CHAT, title: 'Supersede' }, ORIGINAL));
    expectOk(await repository.compactInPlace(session.id, compacted(ORIGINAL, 'one'), inPlace(1, 'one')));
    expectOk(await repository.undoCompaction(session.id));
    expectOk(await repository.compactInPlace(session.id, compacted(ORIGINAL, 'two'), inPlace(1, 'two')));
    expect((await repository.listCompactions([session.id])).map((epoch) => epoch.status)).toEqual([
      'superseded',
      'applied',
    ]);
    expect(await repository.redoCompaction(session.id)).toMatchObject({
      ok: false,
      error: { type: 'NothingToRedo' },
    });
    db.close();
  });
});

describe('undo and redo of a rotation', () => {
  it('makes the parent the live tip again, keeps the child as an undone branch and carries later turns across', async () => {
    for (const preset of [HERMES_2026_04, HERMES_2026_07]) {
      const { db, repository } = openFixtureRepository(`rotate-undo-${preset.name}`, {
        preset: () => preset,
      });
      const root = expectOk(await repository.createSession({ ...CHAT, title: 'Rotate' }, ORIGINAL));
      const child = expectOk(
        await repository.rotateForCompression(root.id, compacted(ORIGINAL, 'one'), rotation(1, 'one')),
      );
      expectOk(await repository.appendMessages(child.id, [user('turn in the child'), assistant('reply')]));
      const rows = await messageRowCount(db);

      const undone = expectOk(await repository.undoCompaction(child.id));
      expect(undone.session.id).toBe(root.id);
      expect(undone.epoch).toMatchObject({ mode: 'rotate', status: 'undone', childSessionId: child.id });
      expect(await repository.getCompressionTip(root.id)).toBe(root.id);
      expect(await repository.getCompressionTip(child.id)).toBe(child.id);
      expect(await repository.resolveResumeSessionId(root.id)).toBe(root.id);
      expect(await repository.loadMessages(root.id)).toEqual([
        ...ORIGINAL,
        user('turn in the child'),
        assistant('reply'),
      ]);
      expect(await repository.loadMessages(child.id)).toEqual(compacted(ORIGINAL, 'one'));
      expect(await repository.getSession(child.id)).toMatchObject({
        endReason: 'branched',
        metadata: { _branched_from: root.id, _compaction_undone: undone.epoch.id },
      });
      // A tab still on the child is sent to the live parent.
      expect(await repository.appendMessages(child.id, [user('late')])).toMatchObject({
        ok: false,
        error: { type: 'SessionAlreadyEnded', sessionId: child.id, tipSessionId: root.id },
      });
      expect(await messageRowCount(db)).toBe(rows);

      expectOk(await repository.appendMessages(root.id, [user('turn after undo')]));
      const redone = expectOk(await repository.redoCompaction(root.id));
      expect(redone.session.id).toBe(child.id);
      expect(await repository.getCompressionTip(root.id)).toBe(child.id);
      expect(await repository.loadMessages(child.id)).toEqual([
        ...compacted(ORIGINAL, 'one'),
        user('turn in the child'),
        assistant('reply'),
        user('turn after undo'),
      ]);
      expect(await repository.loadMessages(root.id)).toEqual(ORIGINAL);
      expect(await repository.getSession(child.id)).toMatchObject({
        endedAt: null,
        endReason: null,
        metadata: null,
      });
      expect(await repository.getSession(root.id)).toMatchObject({ endReason: 'compression' });
      expect(await messageRowCount(db)).toBe(rows + 1);
      db.close();
    }
  });

  it('walks a mixed chain back: in place, then a rotation, then in place in the child', async () => {
    const { db, repository } = openFixtureRepository('mixed-chain', { preset: () => HERMES_2026_07 });
    const root = expectOk(await repository.createSession({ ...CHAT, title: 'Mixed' }, ORIGINAL));
    expectOk(await repository.compactInPlace(root.id, compacted(ORIGINAL, 'one'), inPlace(1, 'one')));
    const afterOne = await repository.loadMessages(root.id);
    const child = expectOk(
      await repository.rotateForCompression(root.id, compacted(afterOne, 'two'), rotation(2, 'two')),
    );
    const afterTwo = await repository.loadMessages(child.id);
    expectOk(await repository.compactInPlace(child.id, compacted(afterTwo, 'three'), inPlace(3, 'three')));
    const epochs = await repository.listCompactions([root.id, child.id]);
    expect(epochs.map((epoch) => [epoch.number, epoch.mode])).toEqual([
      [1, 'in-place'],
      [2, 'rotate'],
      [3, 'in-place'],
    ]);
    expect(expectOk(await repository.undoCompaction(child.id)).epoch.number).toBe(3);
    expect(expectOk(await repository.undoCompaction(child.id)).session.id).toBe(root.id);
    expect(expectOk(await repository.undoCompaction(root.id)).epoch.number).toBe(1);
    expect(await repository.loadMessages(root.id)).toEqual(ORIGINAL);
    expect(expectOk(await repository.redoCompaction(root.id)).epoch.number).toBe(1);
    expect(expectOk(await repository.redoCompaction(root.id)).session.id).toBe(child.id);
    expect(expectOk(await repository.redoCompaction(child.id)).epoch.number).toBe(3);
    expect(await repository.loadMessages(child.id)).toEqual(compacted(afterTwo, 'three'));
    db.close();
  });

  it('forgets the epochs of a deleted session', async () => {
    const { db, repository } = openFixtureRepository('delete-epochs');
    const root = expectOk(await repository.createSession({ ...CHAT, title: 'Gone' }, ORIGINAL));
    expectOk(await repository.compactInPlace(root.id, compacted(ORIGINAL, 'one'), inPlace(1, 'one')));
    expectOk(await repository.deleteSession(root.id));
    expect(await db.compactions.count()).toBe(0);
    db.close();
  });
});

describe('crash consistency of epoch operations', () => {
  type Operation =
    'compact-in-place' | 'undo-in-place' | 'redo-in-place' | 'rotate' | 'undo-rotation' | 'redo-rotation';
  const cases: Array<{ operation: Operation; steps: readonly EpochStep[] }> = [
    { operation: 'compact-in-place', steps: IN_PLACE_STEPS },
    { operation: 'undo-in-place', steps: UNDO_IN_PLACE_STEPS },
    { operation: 'redo-in-place', steps: REDO_IN_PLACE_STEPS },
    { operation: 'rotate', steps: ['record-epoch'] },
    { operation: 'undo-rotation', steps: ROTATION_EPOCH_STEPS },
    { operation: 'redo-rotation', steps: ROTATION_EPOCH_STEPS },
  ];

  /** Brings a session to the state just before `operation`; returns how to run it. */
  async function prepare(
    repository: SessionRepository,
    operation: Operation,
  ): Promise<() => Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }>> {
    const root = expectOk(await repository.createSession({ ...CHAT, title: `Crash ${operation}` }, ORIGINAL));
    switch (operation) {
      case 'compact-in-place':
        return () => repository.compactInPlace(root.id, compacted(ORIGINAL, 'x'), inPlace(1, 'x'));
      case 'undo-in-place':
      case 'redo-in-place': {
        expectOk(await repository.compactInPlace(root.id, compacted(ORIGINAL, 'x'), inPlace(1, 'x')));
        expectOk(await repository.appendMessages(root.id, [user('later turn')]));
        if (operation === 'undo-in-place') return () => repository.undoCompaction(root.id);
        expectOk(await repository.undoCompaction(root.id));
        return () => repository.redoCompaction(root.id);
      }
      case 'rotate':
        return () => repository.rotateForCompression(root.id, compacted(ORIGINAL, 'x'), rotation(1, 'x'));
      case 'undo-rotation':
      case 'redo-rotation': {
        const child = expectOk(
          await repository.rotateForCompression(root.id, compacted(ORIGINAL, 'x'), rotation(1, 'x')),
        );
        expectOk(await repository.appendMessages(child.id, [user('later turn')]));
        if (operation === 'undo-rotation') return () => repository.undoCompaction(child.id);
        expectOk(await repository.undoCompaction(child.id));
        expectOk(await repository.appendMessages(root.id, [user('after undo')]));
        return () => repository.redoCompaction(root.id);
      }
    }
  }

  for (const { operation, steps } of cases)
    for (const step of steps)
      for (const how of ['throws', 'aborts'] as const)
        it(`${operation}: the transaction ${how} after '${step}' and nothing changes; the retry completes`, async () => {
          let armed = false;
          const { db, repository } = openFixtureRepository(`epoch-crash-${operation}-${step}-${how}`, {
            onEpochStep: (reached) => {
              if (!armed || reached !== step) return;
              if (how === 'throws') throw new Error(`crash after ${reached}`);
              Dexie.currentTransaction?.abort();
            },
          });
          const run = await prepare(repository, operation);
          const before = await snapshotDatabase(db);
          armed = true;
          await expect(run()).rejects.toThrow();
          expect(await snapshotDatabase(db)).toEqual(before);
          armed = false;
          expectOk(await run());
          expect(await snapshotDatabase(db)).not.toEqual(before);
          db.close();
        });
});

describe('two tabs', () => {
  const openTwoTabs = (label: string) => {
    const name = uniqueDbName(label);
    const first = new AppDb(name);
    const second = new AppDb(name);
    let draw = 0;
    const shared: Partial<SessionRepositoryDeps> = {
      randomHex: (bytes: number) => (draw++).toString(16).padStart(bytes * 2, '0'),
    };
    return {
      first,
      second,
      tabA: new SessionRepository(first, fixtureDeps(shared)),
      tabB: new SessionRepository(second, fixtureDeps(shared)),
    };
  };

  for (const mode of ['in-place', 'rotate'] as const)
    it(`never undo twice (${mode}): the lock lets one tab in, the epoch check refuses the stale one`, async () => {
      const { first, second, tabA, tabB } = openTwoTabs(`two-tabs-undo-${mode}`);
      const locks = new InMemoryLockManager();
      const root = expectOk(await tabA.createSession({ ...CHAT, title: 'Shared' }, ORIGINAL));
      let live = root.id;
      for (let count = 1; count <= 2; count++) {
        const current = await tabA.loadMessages(live);
        if (mode === 'in-place')
          expectOk(
            await tabA.compactInPlace(live, compacted(current, `s${count}`), inPlace(count, `s${count}`)),
          );
        else
          live = expectOk(
            await tabA.rotateForCompression(
              live,
              compacted(current, `s${count}`),
              rotation(count, `s${count}`),
            ),
          ).id;
      }
      // Both tabs show epoch 2 as the one to undo.
      const shown = (await tabB.listCompactions([root.id, live])).at(-1)!;
      expect(shown.number).toBe(2);
      const undo = (tab: SessionRepository) =>
        withCompactionLock(
          live,
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 10));
            return tab.undoCompaction(live, { expectedEpochId: shown.id });
          },
          locks,
        );
      const [fromA, fromB] = await Promise.all([undo(tabA), undo(tabB)]);
      expect(fromA).toMatchObject({ ok: true, value: { ok: true } });
      expect(fromB).toMatchObject({ ok: false, error: { type: 'CompactionInProgress' } });
      // Tab B tries again once the lock is free, still expecting epoch 2: refused, nothing changes.
      const before = await snapshotDatabase(second);
      const retry = await tabB.undoCompaction(live, { expectedEpochId: shown.id });
      expect(retry.ok).toBe(false);
      expect(await snapshotDatabase(second)).toEqual(before);
      const statuses = (await tabB.listCompactions([root.id, live])).map((epoch) => epoch.status);
      expect(statuses).toEqual(['applied', 'undone']);
      first.close();
      second.close();
    });

  it('never undo twice without the lock either: the write transaction re-checks the expected epoch', async () => {
    const { first, second, tabA, tabB } = openTwoTabs('two-tabs-no-lock-undo');
    const root = expectOk(await tabA.createSession({ ...CHAT, title: 'Shared' }, ORIGINAL));
    expectOk(await tabA.compactInPlace(root.id, compacted(ORIGINAL, 'one'), inPlace(1, 'one')));
    const shown = (await tabA.listCompactions([root.id]))[0]!;
    const results = await Promise.all([
      tabA.undoCompaction(root.id, { expectedEpochId: shown.id }),
      tabB.undoCompaction(root.id, { expectedEpochId: shown.id }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toMatchObject([
      { ok: false, error: { type: 'HistoryChanged' } },
    ]);
    expect(await tabB.loadMessages(root.id)).toEqual(ORIGINAL);
    first.close();
    second.close();
  });

  it('refuses an append from a tab holding a history another tab changed', async () => {
    const { first, second, tabA, tabB } = openTwoTabs('two-tabs-revision');
    const root = expectOk(await tabA.createSession({ ...CHAT, title: 'Shared' }, ORIGINAL));
    const revision = (await tabB.getSession(root.id))?.historyRevision ?? 0;
    expectOk(await tabA.compactInPlace(root.id, compacted(ORIGINAL, 'one'), inPlace(1, 'one')));
    expect(
      await tabB.appendMessages(root.id, [user('stale tab')], { expectedHistoryRevision: revision }),
    ).toMatchObject({ ok: false, error: { type: 'HistoryChanged' } });
    expect(await tabB.loadMessages(root.id)).toEqual(compacted(ORIGINAL, 'one'));
    first.close();
    second.close();
  });
});
