/**
 * SPEC §6 at the level of the live chat: a compaction interrupted at any point (an error in the
 * summariser or inside compress(), a cancel, a full disk while the continuation is written)
 * leaves the old session live and unchanged, never a half; a full disk during a chat turn is
 * reported plainly and keeps what was stored. The repository's own tests cover the rotation
 * transaction (crash at each step, quota, two tabs); these cover the runtime around it.
 */
import { describe, expect, it } from 'vitest';
import type { AppDb } from '#io/db/app-db.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import { openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';
import { createRuntimeFixture, noAbort, summaryRequests, type RuntimeFixture } from './runtime-fixture.ts';
import type { RuntimeFixtureOptions } from './runtime-fixture.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { inProcessCompactor } from '#tests/helpers/in-process-compactor.ts';
import type { CompactionMode } from '#core/sessions/compaction-mode.ts';

const provider = useMockProvider();

const TURNS = 8;
const turnText = (turn: number): string =>
  `Turn ${turn}: please review module ${turn} and list what to change. ` +
  'It parses invoices and writes ledger rows. '.repeat(60);
const quotaError = (): DOMException => new DOMException('The quota has been exceeded.', 'QuotaExceededError');
const STORAGE_FULL = /^Browser storage is full: .*Nothing was saved/;

interface Conversation {
  readonly fixture: RuntimeFixture;
  readonly db: AppDb;
  readonly rootId: string;
  readonly mode: CompactionMode;
}

/** Both ways a compaction is committed: each fault must leave either untouched. */
const MODES: readonly CompactionMode[] = ['in-place', 'rotate'];

/** A stored conversation of `TURNS` turns, on a database the test can reach into. */
async function conversation(
  label: string,
  options: Partial<Omit<RuntimeFixtureOptions, 'label' | 'mock' | 'repository'>> & {
    mode?: CompactionMode;
  } = {},
): Promise<Conversation> {
  const { mode = 'in-place', ...fixtureOptions } = options;
  const { db, repository } = openFixtureRepository(`${label}-${mode}`);
  const fixture = createRuntimeFixture({
    label,
    mock: provider.mock(),
    repository,
    preset: HERMES_2026_07,
    ...fixtureOptions,
  });
  fixture.settings = { ...fixture.settings, compactionMode: mode };
  for (let turn = 1; turn <= TURNS; turn++)
    expect((await fixture.runtime.sendUserMessage(turnText(turn), noAbort())).outcome).toBe('completed');
  fixture.events.length = 0;
  return { fixture, db, rootId: fixture.runtime.sessionId!, mode };
}

/** The rows that make up the conversation: sessions with their chain columns, and every message row. */
async function conversationRows(db: AppDb): Promise<unknown> {
  const sessions = await db.sessions.toArray();
  return {
    sessions: sessions.map(({ id, parentSessionId, endReason, endedAt, messageCount, title }) => ({
      id,
      parentSessionId,
      endReason,
      endedAt,
      messageCount,
      title,
    })),
    messages: await db.messages.toArray(),
  };
}

/** The old session is still the live tip, holding what it held, and the runtime is still on it. */
async function expectUnchanged(subject: Conversation, rowsBefore: unknown): Promise<void> {
  const { fixture, db, rootId } = subject;
  expect(await conversationRows(db)).toEqual(rowsBefore);
  expect(fixture.runtime.sessionId).toBe(rootId);
  expect(await fixture.repository.getCompressionTip(rootId)).toBe(rootId);
  expect((await fixture.repository.getSession(rootId))?.endReason).toBeNull();
  expect(await fixture.repository.loadMessages(rootId)).toEqual(fixture.runtime.messages);
}

/** After the fault, a plain /compress compacts once: nothing (a lock, a flag) was left behind. */
async function expectCompactsNext(subject: Conversation): Promise<void> {
  const { fixture, rootId, mode } = subject;
  fixture.events.length = 0;
  expect(await fixture.runtime.sendUserMessage('/compress', noAbort())).toEqual({
    outcome: 'completed',
    message: null,
  });
  expect(fixture.eventsOf('compaction-end').map((event) => event.outcome)).toEqual([
    mode === 'in-place' ? 'in-place' : 'rotated',
  ]);
  if (mode === 'in-place') expect(fixture.runtime.sessionId).toBe(rootId);
  else expect(fixture.runtime.sessionId).not.toBe(rootId);
  expect(await fixture.repository.getCompressionTip(rootId)).toBe(fixture.runtime.sessionId);
  expect((await fixture.repository.listSessions()).length).toBe(mode === 'in-place' ? 1 : 2);
  expect((await fixture.repository.listConversationCompactions(rootId)).map((epoch) => epoch.mode)).toEqual([
    mode,
  ]);
}

describe('ConversationRuntime: an interrupted compaction', () => {
  it('leaves the session live and unchanged when the summary call is refused (401), dropping nothing', async () => {
    const subject = await conversation('summary-auth');
    const before = await conversationRows(subject.db);
    provider.mock().script([
      {
        kind: 'error',
        status: 401,
        body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      },
    ]);
    const result = await subject.fixture.runtime.sendUserMessage('/compress', noAbort());
    expect(result.outcome).toBe('completed');
    expect(result.message).toMatch(/^Nothing was compressed/);
    expect(summaryRequests(provider.mock())).toHaveLength(1);
    const [end] = subject.fixture.eventsOf('compaction-end');
    expect(end).toMatchObject({ outcome: 'aborted', skippedReason: 'summary-failed-aborted' });
    await expectUnchanged(subject, before);
    // 2026-07 then waits out a cooldown before summarising again; a new summary model resets it.
  });

  for (const mode of MODES)
    it(`ends the turn plainly when compress() itself throws, leaves the session live and unchanged, and frees the lock (${mode})`, async () => {
      let failing = false;
      const subject = await conversation('compress-throws', {
        mode,
        overrides: {
          compact: (request, summarizer, signal) =>
            failing
              ? Promise.reject(new Error('clock failure inside compress()'))
              : inProcessCompactor(request, summarizer, signal),
        },
      });
      const stopWatching = subject.fixture.runtime.events.subscribe((event) => {
        if (event.type === 'compaction-start') failing = true;
      });
      const before = await conversationRows(subject.db);
      const result = await subject.fixture.runtime.sendUserMessage('/compress', noAbort());
      failing = false;
      stopWatching();
      expect(result).toEqual({ outcome: 'failed', message: 'clock failure inside compress()' });
      expect(subject.fixture.eventsOf('error').map((event) => event.message)).toEqual([result.message]);
      expect(subject.fixture.eventsOf('compaction-end')).toEqual([]);
      await expectUnchanged(subject, before);
      expect(subject.fixture.runtime.busy).toBe(false);
      await expectCompactsNext(subject);
    });

  for (const mode of MODES)
    it(`leaves the session live and unchanged when Stop is pressed during the summary call (${mode})`, async () => {
      const controller = new AbortController();
      const subject = await conversation('compress-cancelled', {
        mode,
        // Stop as soon as the summary request (the one without tools) has gone out.
        fetch: async (input, init) => {
          const pending = fetch(input, init);
          const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { tools?: unknown[] }) : {};
          const url = input instanceof Request ? input.url : String(input);
          if (body.tools === undefined && url.endsWith('/v1/messages'))
            setTimeout(() => controller.abort(), 50);
          return pending;
        },
      });
      const before = await conversationRows(subject.db);
      provider.mock().script([{ kind: 'timeout' }]);
      const result = await subject.fixture.runtime.sendUserMessage('/compress', controller.signal);
      expect(result).toEqual({ outcome: 'cancelled', message: null });
      expect(summaryRequests(provider.mock())).toHaveLength(1);
      await expectUnchanged(subject, before);
      await expectCompactsNext(subject);
    });

  for (const mode of MODES)
    it(`reports a full disk while the compacted history is written, keeps the session live and whole, and compacts once there is room (${mode})`, async () => {
      const subject = await conversation('compress-quota', { mode });
      let full = false;
      const stopWatching = subject.fixture.runtime.events.subscribe((event) => {
        if (event.type === 'compaction-start') full = true;
      });
      subject.db.messages.hook('creating', () => {
        if (full) throw quotaError();
      });
      const before = await conversationRows(subject.db);
      const result = await subject.fixture.runtime.sendUserMessage('/compress', noAbort());
      full = false;
      stopWatching();
      expect(result.outcome).toBe('failed');
      expect(result.message).toMatch(STORAGE_FULL);
      // The summary was generated (and billed), then the rotation was refused as a whole.
      expect(summaryRequests(provider.mock())).toHaveLength(1);
      await expectUnchanged(subject, before);
      await expectCompactsNext(subject);
    });

  it('keeps the user message of a chat turn whose overflow compaction hits a full disk', async () => {
    const subject = await conversation('overflow-quota', { contextLength: 32_000 });
    let full = false;
    subject.fixture.runtime.events.subscribe((event) => {
      if (event.type === 'compaction-start') full = true;
    });
    subject.db.messages.hook('creating', () => {
      if (full) throw quotaError();
    });
    provider.mock().script([{ kind: 'context-overflow', contextWindow: 30_000, inputTokens: 40_000 }]);
    const result = await subject.fixture.runtime.sendUserMessage('One more question', noAbort());
    full = false;
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(STORAGE_FULL);
    expect(subject.fixture.eventsOf('recovery')).toEqual([
      expect.objectContaining({ action: 'compress-and-retry', attempt: 1 }),
    ]);
    const stored = await subject.fixture.repository.loadMessages(subject.rootId);
    expect(stored.at(-1)).toEqual({ role: 'user', content: 'One more question' });
    expect(stored).toHaveLength(2 * TURNS + 1);
    expect(subject.fixture.runtime.sessionId).toBe(subject.rootId);
    expect((await subject.fixture.repository.listSessions()).length).toBe(1);
    // Retry answers the kept message.
    expect(await subject.fixture.runtime.retry(noAbort())).toEqual({ outcome: 'completed', message: null });
  });
});

describe('ConversationRuntime: storage full during a chat turn', () => {
  it('reports a user message that cannot be stored plainly, sends nothing and keeps what was stored', async () => {
    const subject = await conversation('quota-user');
    const before = await conversationRows(subject.db);
    const requestsBefore = provider.mock().requests.length;
    const hook = (): never => {
      throw quotaError();
    };
    subject.db.messages.hook('creating', hook);
    const result = await subject.fixture.runtime.sendUserMessage('This will not fit', noAbort());
    subject.db.messages.hook('creating').unsubscribe(hook);
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(STORAGE_FULL);
    expect(provider.mock().requests.length).toBe(requestsBefore);
    await expectUnchanged(subject, before);
    // With room again, the same message goes through.
    expect(await subject.fixture.runtime.sendUserMessage('This will not fit', noAbort())).toEqual({
      outcome: 'completed',
      message: null,
    });
  });

  it('keeps the user message when the reply cannot be stored, says so, and Retry answers it once there is room', async () => {
    const subject = await conversation('quota-reply');
    let full = false;
    subject.fixture.runtime.events.subscribe((event) => {
      if (event.type === 'message-append' && event.message.role === 'user') full = true;
    });
    subject.db.messages.hook('creating', () => {
      if (full) throw quotaError();
    });
    const result = await subject.fixture.runtime.sendUserMessage('Answer me', noAbort());
    full = false;
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(STORAGE_FULL);
    const stored = await subject.fixture.repository.loadMessages(subject.rootId);
    expect(stored.at(-1)).toEqual({ role: 'user', content: 'Answer me' });
    // No reply lives only in memory: what is shown is what is stored.
    expect(subject.fixture.runtime.messages).toEqual(stored);

    expect(await subject.fixture.runtime.retry(noAbort())).toEqual({ outcome: 'completed', message: null });
    expect((await subject.fixture.repository.loadMessages(subject.rootId)).slice(-2)).toEqual([
      { role: 'user', content: 'Answer me' },
      { role: 'assistant', content: 'Mock reply to: Answer me' },
    ]);
  });
});
