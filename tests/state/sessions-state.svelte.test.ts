// @vitest-environment jsdom
// Runes effects run only in the client build of Svelte, which the jsdom environment selects.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppDb } from '#io/db/app-db.ts';
import type { SessionRepository } from '#io/db/session-repository.ts';
import { SessionsState, type OpenSessionRequest } from '#state/sessions-state.svelte.ts';
import { FIXTURE_START_MS, openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';
import { inProcessStoredSessions } from '#tests/helpers/in-process-stored-sessions.ts';
import { storeChain, type StoredChain } from './sessions-fixture.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

interface Harness {
  db: AppDb;
  repository: SessionRepository;
  state: SessionsState;
  chain: StoredChain;
  opened: OpenSessionRequest[];
  resumed: string[];
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** A state over a real repository, observed by an effect as a mounted panel would. */
async function harness(label: string, options: { resumeInChat?: boolean } = {}): Promise<Harness> {
  const { db, repository } = openFixtureRepository(label);
  const chain = await storeChain(repository);
  const opened: OpenSessionRequest[] = [];
  const resumed: string[] = [];
  const state = new SessionsState({
    repository,
    stored: inProcessStoredSessions(repository),
    preset: () => HERMES_2026_07,
    openInWorkspace: async (request) => {
      opened.push(request);
      // The workspace finds a hit's message when it is live (the worker looks it up by stored id).
      const live = await repository.loadMessageEntries(request.sessionId);
      return request.messageId !== null && live.some((entry) => entry.id === request.messageId);
    },
    resumeInChat: options.resumeInChat
      ? async (id) => {
          resumed.push(id);
        }
      : undefined,
    now: () => FIXTURE_START_MS,
  });
  const stop = $effect.root(() => {
    $effect(() => {
      void state.conversations;
      void state.lineage;
    });
  });
  cleanups.push(() => {
    stop();
    db.close();
  });
  await vi.waitFor(() => expect(state.conversations).toHaveLength(2));
  return { db, repository, state, chain, opened, resumed };
}

describe('SessionsState list', () => {
  it('groups a continuation chain into one conversation, root → tip, titled by the tip', async () => {
    const { state, chain } = await harness('sessions-list');
    const conversation = state.conversations.find((entry) => entry.id === chain.rootId);
    expect(conversation?.segments.map((row) => row.id)).toEqual([chain.rootId, chain.middleId, chain.tipId]);
    expect(conversation?.title).toBe('Fix the login bug #3');
    expect(conversation?.compressionCount).toBe(2);
    expect(conversation?.storedMessages).toBe(3 + 4 + 3);
    expect(state.conversations.map((entry) => entry.id)).toContain(chain.loneId);
  });

  it('follows new sessions live', async () => {
    const { state, repository } = await harness('sessions-live');
    await repository.createSession(
      { title: 'Brand new', source: 'chat', model: null, systemPrompt: null },
      [],
    );
    await vi.waitFor(() => expect(state.conversations.map((entry) => entry.title)).toContain('Brand new'));
  });
});

describe('SessionsState lineage', () => {
  it('describes each segment of the selected conversation, with the summary that opens it', async () => {
    const { state, chain } = await harness('sessions-lineage');
    state.select(chain.middleId);
    await vi.waitFor(() => expect(state.lineage).not.toBeNull());
    const lineage = state.lineage!;
    expect(lineage.map((segment) => [segment.number, segment.session.id])).toEqual([
      [1, chain.rootId],
      [2, chain.middleId],
      [3, chain.tipId],
    ]);
    expect(lineage[0]?.description.summaryPreview).toBeNull();
    expect(lineage[1]?.description).toMatchObject({ messageCount: 4, summaryIndex: 1 });
    expect(lineage[1]?.description.summaryPreview).toBe('## Active Task Fix login for special accounts');
    expect(lineage[2]?.description.roughTokens).toBeGreaterThan(0);
  });
});

describe('SessionsState search', () => {
  it('finds a message of an ended ancestor and opens that session at the message', async () => {
    const { state, chain, opened } = await harness('sessions-search');
    state.setQuery('zanzibar');
    await state.search();
    expect(state.hits).toHaveLength(1);
    expect(state.hits[0]).toMatchObject({ sessionId: chain.rootId, sessionTitle: 'Fix the login bug' });
    expect(state.hits[0]?.snippet).toContain('zanzibar');
    expect(state.locate(chain.rootId)).toEqual({ number: 1, of: 3, ended: true });
    expect(state.locate(chain.loneId)).toEqual({ number: 1, of: 1, ended: false });
    await state.openHit(state.hits[0]!);
    expect(opened).toEqual([
      { sessionId: chain.rootId, messageId: state.hits[0]!.messageId, source: 'chat' },
    ]);
    expect(state.notice).toBeNull();
  });

  it('keeps only the newest query’s hits', async () => {
    const { state } = await harness('sessions-search-race');
    state.setQuery('zanzibar');
    const first = state.search();
    state.setQuery('hello');
    await Promise.all([first, state.search()]);
    expect(state.searchedQuery).toBe('hello');
    expect(state.hits.map((hit) => hit.snippet)).toEqual(['hello there']);
  });
});

describe('SessionsState open and resume', () => {
  it('resumes at the tip in the chat when the chat is wired', async () => {
    const { state, chain, resumed } = await harness('sessions-resume', { resumeInChat: true });
    await state.resume(chain.rootId);
    expect(resumed).toEqual([chain.tipId]);
  });

  it('opens an imported session in the workspace even with the chat wired (its system prompt is a message)', async () => {
    const { state, chain, resumed, opened } = await harness('sessions-resume-import', { resumeInChat: true });
    await state.resume(chain.loneId);
    expect(resumed).toEqual([]);
    expect(opened.map((request) => request.sessionId)).toEqual([chain.loneId]);
  });

  it('opens the tip in the workspace otherwise', async () => {
    const { state, chain, opened } = await harness('sessions-resume-open');
    await state.resume(chain.middleId);
    expect(opened.map((request) => request.sessionId)).toEqual([chain.tipId]);
  });
});

describe('SessionsState export', () => {
  it('exports the whole chain in every format with a file name per format', async () => {
    const { state, chain } = await harness('sessions-export');
    const hermes = await state.exportFile(chain.middleId, 'hermes-jsonl');
    expect(hermes?.fileName).toBe(`fix-the-login-bug-3-${chain.rootId}.hermes.jsonl`);
    const lines = (await hermes!.blob.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.id, line.parent_session_id])).toEqual([
      [chain.rootId, null],
      [chain.middleId, chain.rootId],
      [chain.tipId, chain.middleId],
    ]);
    const internal = await state.exportFile(chain.tipId, 'internal-json');
    expect(internal?.mimeType).toBe('application/json');
    const internalText = await internal!.blob.text();
    expect(() => {
      JSON.parse(internalText);
    }).not.toThrow();
    expect(internal!.blob.type).toBe('application/json;charset=utf-8');
    const markdown = await state.exportFile(chain.tipId, 'markdown');
    expect(markdown?.fileName.endsWith('.md')).toBe(true);
    expect(await markdown!.blob.text()).toContain('zanzibar');
    const sharegpt = await state.exportFile(chain.tipId, 'sharegpt');
    expect((await sharegpt!.blob.text()).trim().split('\n')).toHaveLength(3);
  });
});

describe('SessionsState rename and delete', () => {
  it('renames, and explains a refusal', async () => {
    const { state, chain } = await harness('sessions-rename');
    expect(await state.rename(chain.loneId, 'Notes from Tuesday')).toBeNull();
    await vi.waitFor(() =>
      expect(state.conversations.map((entry) => entry.title)).toContain('Notes from Tuesday'),
    );
    expect(await state.rename(chain.loneId, 'Fix the login bug')).toMatch(/already called/);
  });

  it('splits the chain when a middle segment is deleted, after saying so', async () => {
    const { state, chain } = await harness('sessions-delete-segment');
    const plan = state.deletePlan(chain.middleId, 'segment')!;
    expect(plan.sessionIds).toEqual([chain.middleId]);
    expect(plan.consequences.join(' ')).toMatch(/splits in two: #1–#1 stay one conversation, and #3–#3/);
    expect(await state.delete(plan)).toBe(true);
    await vi.waitFor(() => expect(state.conversations).toHaveLength(3));
    const chains = state.conversations.map((entry) => entry.segments.map((row) => row.id));
    expect(chains).toContainEqual([chain.rootId]);
    expect(chains).toContainEqual([chain.tipId]);
  });

  it('deletes a whole conversation, messages and all', async () => {
    const { state, chain, repository } = await harness('sessions-delete-all');
    const plan = state.deletePlan(chain.tipId, 'conversation')!;
    expect(plan.sessionIds).toHaveLength(3);
    expect(plan.consequences[0]).toMatch(/all 3 sessions of the conversation with 10 stored messages/);
    expect(await state.delete(plan)).toBe(true);
    await vi.waitFor(() => expect(state.conversations.map((entry) => entry.id)).toEqual([chain.loneId]));
    expect(await repository.search('zanzibar')).toEqual([]);
  });
});
