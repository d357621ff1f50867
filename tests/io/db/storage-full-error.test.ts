import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import type { Message } from '#core/transcript/message.ts';
import { isStorageFullError, runPlainStorageWrite } from '#io/db/storage-full-error.ts';
import {
  assistant,
  expectOk,
  openFixtureRepository,
  snapshotDatabase,
  user,
} from '#tests/helpers/session-repository-fixture.ts';

const CHAT = { title: 'Chat', source: 'chat', model: null, systemPrompt: null } as const;
const quotaError = (): DOMException => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

describe('SessionRepository on a full disk', () => {
  it('reports StorageFull and changes nothing when an append hits the quota midway', async () => {
    const { db, repository } = openFixtureRepository('quota-append');
    const session = expectOk(await repository.createSession(CHAT, [user('stored before')]));
    const before = await snapshotDatabase(db);
    let written = 0;
    // The second message row fails: the first is already written inside the transaction.
    db.messages.hook('creating', () => {
      if (++written === 2) throw quotaError();
    });
    const result = await repository.appendMessages(session.id, [assistant('one'), user('two')]);
    expect(result).toEqual({
      ok: false,
      error: {
        type: 'StorageFull',
        message:
          'Browser storage is full: The quota has been exceeded. Nothing was saved; delete old sessions to make room.',
      },
    });
    expect(await snapshotDatabase(db)).toEqual(before);
    expect(await repository.loadMessages(session.id)).toEqual([user('stored before')]);
    db.close();
  });

  it('stores nothing of a session whose search postings hit the quota', async () => {
    const { db, repository } = openFixtureRepository('quota-create');
    const before = await snapshotDatabase(db);
    db.searchShards.hook('creating', () => {
      throw quotaError();
    });
    expect(await repository.createSession(CHAT, [user('never stored')])).toMatchObject({
      ok: false,
      error: { type: 'StorageFull' },
    });
    expect(await snapshotDatabase(db)).toEqual(before);
    db.close();
  });

  it('leaves the old session live when a rotation hits the quota', async () => {
    const { db, repository } = openFixtureRepository('quota-rotate');
    const session = expectOk(await repository.createSession(CHAT, [user('a'), assistant('b')]));
    const before = await snapshotDatabase(db);
    db.messages.hook('creating', () => {
      throw quotaError();
    });
    expect(
      await repository.rotateForCompression(session.id, [user('summary')], {
        compressorState: createCompressorState(),
        systemPrompt: null,
      }),
    ).toMatchObject({ ok: false, error: { type: 'StorageFull' } });
    expect(await snapshotDatabase(db)).toEqual(before);
    expect((await repository.getSession(session.id))?.endedAt).toBeNull();
    db.close();
  });

  it('keeps the accumulators when a usage event hits the quota', async () => {
    const { db, repository } = openFixtureRepository('quota-usage');
    const session = expectOk(await repository.createSession(CHAT, []));
    db.usageEvents.hook('creating', () => {
      throw quotaError();
    });
    const usage = {
      inputTokens: 1,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      requestCount: 1,
    };
    expect(await repository.addUsage(session.id, usage, 1, 'm')).toMatchObject({
      ok: false,
      error: { type: 'StorageFull' },
    });
    expect((await repository.getSession(session.id))?.inputTokens).toBe(0);
    db.close();
  });
});

describe('isStorageFullError', () => {
  it('recognises the error itself, a wrapped one and one among bulk failures', () => {
    expect(isStorageFullError(quotaError())).toBe(true);
    expect(isStorageFullError({ name: 'AbortError', inner: quotaError() })).toBe(true);
    expect(isStorageFullError({ name: 'BulkError', failures: [new Error('x'), quotaError()] })).toBe(true);
    expect(isStorageFullError(new Error('other'))).toBe(false);
    expect(isStorageFullError('QuotaExceededError')).toBe(false);
  });
});

describe('isStorageFullError on the out-of-space errors of Chromium', () => {
  /** What Chromium gave on a nearly full disk instead of a QuotaExceededError (issue 21 item 4). */
  const noSpaceUnknown = (): DOMException =>
    new DOMException(
      'Internal error: IO error: 000004.log: NO_SPACE: No space left on device',
      'UnknownError',
    );
  const noSpaceAbort = (): DOMException =>
    new DOMException('The transaction was aborted (NO_SPACE).', 'AbortError');

  it('recognises AbortError and UnknownError that say the disk is out of space, bare or wrapped by Dexie', () => {
    expect(isStorageFullError(noSpaceUnknown())).toBe(true);
    expect(isStorageFullError(noSpaceAbort())).toBe(true);
    expect(isStorageFullError({ name: 'AbortError', message: 'aborted', inner: noSpaceUnknown() })).toBe(
      true,
    );
    expect(isStorageFullError({ name: 'DatabaseClosedError', cause: noSpaceAbort() })).toBe(true);
  });

  it('does not take other aborts and internal errors for a full disk', () => {
    expect(isStorageFullError(new DOMException('The transaction was aborted.', 'AbortError'))).toBe(false);
    expect(
      isStorageFullError(new DOMException('Internal error opening backing store.', 'UnknownError')),
    ).toBe(false);
  });

  it('reports a NO_SPACE failure of a write as StorageFull, with nothing changed', async () => {
    const { db, repository } = openFixtureRepository('no-space-create');
    const before = await snapshotDatabase(db);
    db.messages.hook('creating', () => {
      throw noSpaceUnknown();
    });
    const result = await repository.createSession(CHAT, [user('never stored')]);
    expect(result).toMatchObject({ ok: false, error: { type: 'StorageFull' } });
    expect(!result.ok && result.error.message).toMatch(
      /^Browser storage is full: .*NO_SPACE.*Nothing was saved/,
    );
    expect(await snapshotDatabase(db)).toEqual(before);
    db.close();
  });
});

describe('SessionRepository before a large write', () => {
  const MB = 1024 * 1024;
  /** About 16 MB to store: 5.5 million characters at three bytes each. */
  const large = (): Message[] => [user('x'.repeat(5_500_000)), assistant('done')];

  it('refuses a write the storage estimate has no room for, with the figures, storing nothing', async () => {
    const estimates: number[] = [];
    const { db, repository } = openFixtureRepository('room-refused', {
      storageEstimate: async () => {
        estimates.push(1);
        return { usageBytes: 112 * MB, quotaBytes: 120 * MB };
      },
    });
    const before = await snapshotDatabase(db);
    const result = await repository.createSession(CHAT, large());
    expect(result).toEqual({
      ok: false,
      error: {
        type: 'StorageFull',
        message:
          'Not enough browser storage: this needs about 16 MB, but only 8.0 MB of the 120 MB this site may use are free. ' +
          'Nothing was saved; delete old sessions to make room.',
      },
    });
    expect(estimates).toHaveLength(1);
    expect(await snapshotDatabase(db)).toEqual(before);
    db.close();
  });

  it('writes when there is room, and does not ask about small writes', async () => {
    let asked = 0;
    const { db, repository } = openFixtureRepository('room-ok', {
      storageEstimate: async () => {
        asked += 1;
        return { usageBytes: 10 * MB, quotaBytes: 2048 * MB };
      },
    });
    const session = expectOk(await repository.createSession(CHAT, large()));
    expect(asked).toBe(1);
    expectOk(await repository.appendMessages(session.id, [user('small')]));
    expect(asked).toBe(1);
    db.close();
  });
});

describe('runPlainStorageWrite', () => {
  it('rethrows errors that are not about the quota', async () => {
    await expect(runPlainStorageWrite(async () => Promise.reject(new TypeError('bug')))).rejects.toThrow(
      'bug',
    );
  });
});
