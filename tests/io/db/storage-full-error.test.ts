import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { isQuotaExceededError, runPlainStorageWrite } from '#io/db/storage-full-error.ts';
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
    db.searchTerms.hook('creating', () => {
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

describe('isQuotaExceededError', () => {
  it('recognises the error itself, a wrapped one and one among bulk failures', () => {
    expect(isQuotaExceededError(quotaError())).toBe(true);
    expect(isQuotaExceededError({ name: 'AbortError', inner: quotaError() })).toBe(true);
    expect(isQuotaExceededError({ name: 'BulkError', failures: [new Error('x'), quotaError()] })).toBe(true);
    expect(isQuotaExceededError(new Error('other'))).toBe(false);
    expect(isQuotaExceededError('QuotaExceededError')).toBe(false);
  });
});

describe('runPlainStorageWrite', () => {
  it('rethrows errors that are not about the quota', async () => {
    await expect(runPlainStorageWrite(async () => Promise.reject(new TypeError('bug')))).rejects.toThrow(
      'bug',
    );
  });
});
