import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET } from '#core/persistence/budget-config.ts';
import { maybePersistToolResultDetailed } from '#core/persistence/maybe-persist-tool-result.ts';
import type { Message } from '#core/transcript/message.ts';
import { AppDb } from '#io/db/app-db.ts';
import {
  IndexedDbToolResultStorage,
  MAXIMUM_PERSISTED_OUTPUT_CHARS,
  PERSISTED_OUTPUTS_LOCATION,
} from '#io/db/indexed-db-tool-result-storage.ts';
import { uniqueDbName } from '#tests/helpers/open-db-at-version.ts';
import { expectOk, openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const CHAT = { title: null, source: 'chat', model: null, systemPrompt: null } as const;
const LINES = Array.from({ length: 30_000 }, (_, index) => `line ${index + 1}`).join('\n');

/** A tool result run through core's layer-2 persistence with the repository's storage. */
function toolMessage(
  storage: Parameters<typeof maybePersistToolResultDetailed>[3],
  toolCallId: string,
  content: string,
): Message {
  const outcome = maybePersistToolResultDetailed(
    content,
    'terminal',
    toolCallId,
    storage,
    DEFAULT_BUDGET,
    undefined,
    HERMES_2026_07,
  );
  return { role: 'tool', tool_call_id: toolCallId, content: outcome.text };
}

describe('IndexedDbToolResultStorage', () => {
  it('stores a persisted output in the transaction that appends the message citing it', async () => {
    const { db, repository } = openFixtureRepository('outputs-flush');
    const storage = repository.toolResultStorage;
    const session = expectOk(await repository.createSession(CHAT, []));
    const message = toolMessage(storage, 'call_big', LINES);
    expect(message.content).toContain(`Full output saved to: ${PERSISTED_OUTPUTS_LOCATION}/call_big.txt`);
    expect(storage.pendingCount).toBe(1);
    expect(await db.persistedOutputs.count()).toBe(0);

    expectOk(await repository.appendMessages(session.id, [message]));
    expect(storage.pendingCount).toBe(0);
    expect(await db.persistedOutputs.get('call_big.txt')).toMatchObject({
      sessionId: session.id,
      toolCallId: 'call_big',
      content: LINES,
    });
    db.close();
  });

  it('reads a slice by characters or lines, with the total size', async () => {
    const { db, repository } = openFixtureRepository('outputs-read');
    const session = expectOk(await repository.createSession(CHAT, []));
    expectOk(
      await repository.appendMessages(session.id, [
        toolMessage(repository.toolResultStorage, 'call_big', LINES),
      ]),
    );

    expect(expectOk(await repository.readPersistedOutput('call_big.txt', 5, 6))).toEqual({
      fileName: 'call_big.txt',
      content: '1\nline',
      offset: 5,
      unit: 'characters',
      totalLength: LINES.length,
      totalLines: 30_000,
      hasMore: true,
    });
    const lines = expectOk(
      await repository.readPersistedOutput(`${PERSISTED_OUTPUTS_LOCATION}/call_big.txt`, 29_998, 10, 'lines'),
    );
    expect(lines).toMatchObject({ content: 'line 29999\nline 30000', hasMore: false, offset: 29_998 });
    expect(await repository.readPersistedOutput('missing.txt', 0, 10)).toEqual({
      ok: false,
      error: { type: 'PersistedOutputNotFound', fileName: 'missing.txt' },
    });
    db.close();
  });

  it('serves a pending output before it is stored', async () => {
    const { db, repository } = openFixtureRepository('outputs-pending');
    repository.toolResultStorage.write('early.txt', 'abcdef');
    expect(expectOk(await repository.readPersistedOutput('early.txt', 2, 2)).content).toBe('cd');
    db.close();
  });

  it('keeps an output nothing cites pending, and stores it with the message that does', async () => {
    const { db, repository } = openFixtureRepository('outputs-uncited');
    const storage = repository.toolResultStorage;
    const first = expectOk(await repository.createSession(CHAT, []));
    const second = expectOk(await repository.createSession(CHAT, []));
    const forSecond = toolMessage(storage, 'call_two', LINES);
    expectOk(await repository.appendMessages(first.id, [{ role: 'user', content: 'unrelated' }]));
    expect(storage.pendingCount).toBe(1);
    expectOk(await repository.appendMessages(second.id, [forSecond]));
    expect((await db.persistedOutputs.get('call_two.txt'))?.sessionId).toBe(second.id);
    storage.write('orphan.txt', 'x');
    storage.discardPending();
    expect(storage.pendingCount).toBe(0);
    db.close();
  });

  it('keeps the output pending when the append fails, so a retry stores it', async () => {
    const { db, repository } = openFixtureRepository('outputs-retry');
    const session = expectOk(await repository.createSession(CHAT, []));
    const message = toolMessage(repository.toolResultStorage, 'call_big', LINES);
    let full = true;
    db.persistedOutputs.hook('creating', () => {
      if (full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    expect(await repository.appendMessages(session.id, [message])).toMatchObject({
      ok: false,
      error: { type: 'StorageFull' },
    });
    expect(repository.toolResultStorage.pendingCount).toBe(1);
    expect(await repository.loadMessages(session.id)).toEqual([]);
    full = false;
    expectOk(await repository.appendMessages(session.id, [message]));
    expect(repository.toolResultStorage.pendingCount).toBe(0);
    expect((await db.persistedOutputs.get('call_big.txt'))?.content).toBe(LINES);
    db.close();
  });

  it('refuses an output too large to store, so core truncates it inline', async () => {
    const db = new AppDb(uniqueDbName('outputs-huge'));
    const storage = new IndexedDbToolResultStorage(db, { maximumChars: LINES.length - 1 });
    expect(storage.write('huge.txt', LINES)).toBe(false);
    expect(toolMessage(storage, 'huge', LINES).content).toContain('[Truncated: tool response was');
    expect(new IndexedDbToolResultStorage(db).write('fits.txt', LINES)).toBe(true);
    expect(LINES.length).toBeLessThan(MAXIMUM_PERSISTED_OUTPUT_CHARS);
    db.close();
  });
});
