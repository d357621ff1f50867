import { afterEach, describe, expect, it } from 'vitest';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { toOpenAiChatJson } from '#core/demo/write-openai-json.ts';
import { roleAt } from '#core/lab/message-roles.ts';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { BROWSER_TOOL_SCHEMAS } from '#core/tools/browser-tool-schemas.ts';
import { messagePreview } from '#core/transcript/message-preview.ts';
import type { Message } from '#core/transcript/message.ts';
import { computeApi } from '#worker/compute-api.ts';
import { useSessionStore } from '#worker/worker-session-store.ts';
import {
  assistant,
  openFixtureRepository,
  snapshotDatabase,
  system,
  user,
} from '#tests/helpers/session-repository-fixture.ts';

const STRATEGY = 'hermes-2026-04';
const transcript = generateAgentTranscript({ messageCount: 1_200, seed: 31 });
const fileOf = (messages: Message[]): Blob =>
  new Blob([toOpenAiChatJson({ ...transcript, messages })], { type: 'application/json' });

afterEach(() => useSessionStore(null));

/** The worker's store over a fixture database of the test's own. */
function storeFor(label: string) {
  const fixture = openFixtureRepository(label);
  useSessionStore(fixture.repository);
  return fixture;
}

describe('computeApi: the page draws a document without holding it', () => {
  it('answers an import with counts, roles and group marks as typed arrays, and the transcript stays in the worker', async () => {
    const imported = await computeApi.importFile(fileOf(transcript.messages), {
      openAs: 'view-test',
      strategy: STRATEGY,
    });
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect('transcript' in imported.value.result).toBe(false);
    expect(imported.value.result.metadata.format).toBe('openai-chat');
    const opened = imported.value.opened!;
    expect(opened.count).toBe(transcript.messages.length);
    expect(opened.perMessage).toBeInstanceOf(Int32Array);
    expect(opened.roles.codes).toBeInstanceOf(Uint32Array);
    expect(opened.groupMarks).toBeInstanceOf(Uint8Array);
    transcript.messages.forEach((message, index) => expect(roleAt(opened.roles, index)).toBe(message.role));
    expect(opened.perMessage.reduce((sum, tokens) => sum + tokens, 0)).toBeGreaterThan(0);
  });

  it('serves list rows, whole messages and finds for the revision the page shows, and nothing for an older one', async () => {
    const first = computeApi.openDocument('rows-test', transcript.messages, STRATEGY);
    const rows = computeApi.documentRows('rows-test', first.revision, 100, 140)!;
    expect(rows.map((row) => row.index)).toEqual(Array.from({ length: 40 }, (_, offset) => 100 + offset));
    expect(rows[5]).toEqual({
      index: 105,
      role: transcript.messages[105]!.role,
      preview: messagePreview(transcript.messages[105]!),
    });
    expect(computeApi.documentRows('rows-test', first.revision, 1_190, 5_000)).toHaveLength(10);
    expect(computeApi.documentMessage('rows-test', first.revision, 7)).toEqual(transcript.messages[7]);
    expect(computeApi.documentMessage('rows-test', first.revision, 99_999)).toBeNull();

    const planted = [...transcript.messages];
    planted[900] = user('where is the quetzal marker');
    const second = computeApi.openDocument('rows-test', planted, STRATEGY);
    expect(computeApi.documentRows('rows-test', first.revision, 0, 10)).toBeNull();
    expect(computeApi.documentMessage('rows-test', first.revision, 0)).toBeNull();
    expect(computeApi.findInDocument('rows-test', second.revision, 'QUETZAL')).toEqual([900]);
    expect(computeApi.findInDocument('rows-test', second.revision, 'no such words anywhere')).toEqual([]);
    expect(computeApi.findInDocument('rows-test', first.revision, 'quetzal')).toEqual([]);
  });

  it('opens a copy of a document (a replay result) under the metadata the page gives it', () => {
    computeApi.openDocument('copy-from', transcript.messages.slice(0, 30), STRATEGY);
    const copy = computeApi.copyDocument('copy-from', 'copy-to', STRATEGY, {
      format: 'internal',
      compactionPoints: [],
      title: 'Result (compressed ×1)',
    });
    expect(copy.count).toBe(30);
    expect(copy.metadata?.title).toBe('Result (compressed ×1)');
    expect(computeApi.documentMessage('copy-to', copy.revision, 29)).toEqual(transcript.messages[29]);
  });

  it('stops reading a file when the page cancels, and keeps the document it had', async () => {
    const before = computeApi.openDocument('cancel-read', transcript.messages.slice(0, 5), STRATEGY);
    const big = fileOf([...transcript.messages, ...transcript.messages, ...transcript.messages]);
    // A stream that hands over the file in small chunks, so the cancel lands between two of them.
    const slow = new Blob([big]);
    const slowFile = Object.assign(slow, {
      stream: () => {
        const reader = big.stream().getReader();
        return new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else
              for (let at = 0; at < value.length; at += 4096) controller.enqueue(value.slice(at, at + 4096));
          },
        });
      },
    });
    const reading = computeApi.importFile(slowFile, { openAs: 'cancel-read', cancelToken: 't-read' });
    computeApi.cancel('t-read');
    const result = await reading;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.type).toBe('ImportCancelled');
    expect(computeApi.documentMessage('cancel-read', before.revision, 4)).toEqual(transcript.messages[4]);
  });
});

describe('computeApi: the worker stores and reads sessions itself', () => {
  it('stores the document it holds in batches, with progress, and finds it after', async () => {
    const { db, repository } = storeFor('worker-store');
    const opened = computeApi.openDocument('store-test', transcript.messages, STRATEGY);
    const progress: number[] = [];
    const stored = await computeApi.storeDocument(
      {
        documentId: 'store-test',
        revision: opened.revision,
        session: { title: 'Stored by the worker', source: 'import', model: null, systemPrompt: null },
      },
      (count) => progress.push(count),
    );
    expect(stored.ok).toBe(true);
    if (!stored.ok) return;
    expect(stored.value.title).toBe('Stored by the worker');
    expect(progress.at(-1)).toBe(transcript.messages.length);
    expect(await repository.loadMessages(stored.value.id)).toEqual(transcript.messages);
    const hits = await computeApi.searchSessions(messagePreview(transcript.messages[1]!).split(' ')[0]!);
    expect(hits.length).toBeGreaterThan(0);
    db.close();
  });

  it('refuses to store a document replaced since the page asked', async () => {
    const { db } = storeFor('worker-store-stale');
    const first = computeApi.openDocument('stale-store', transcript.messages.slice(0, 10), STRATEGY);
    computeApi.openDocument('stale-store', transcript.messages.slice(0, 20), STRATEGY);
    const stored = await computeApi.storeDocument({
      documentId: 'stale-store',
      revision: first.revision,
      session: { title: null, source: 'import', model: null, systemPrompt: null },
    });
    expect(!stored.ok && stored.error.type).toBe('DocumentChanged');
    expect(await db.messages.count()).toBe(0);
    db.close();
  });

  it('leaves the database as it was when the page cancels while storing', async () => {
    const { db } = storeFor('worker-store-cancel');
    const before = await snapshotDatabase(db);
    const opened = computeApi.openDocument('cancel-store', transcript.messages, STRATEGY);
    const reported: number[] = [];
    const storing = computeApi.storeDocument(
      {
        documentId: 'cancel-store',
        revision: opened.revision,
        session: { title: 'Never kept', source: 'import', model: null, systemPrompt: null },
        cancelToken: 't-store',
      },
      // Cancelled once the first batch is written: what it wrote must go again.
      (count) => {
        reported.push(count);
        computeApi.cancel('t-store');
      },
    );
    const stored = await storing;
    expect(!stored.ok && stored.error.type).toBe('StoreCancelled');
    expect(await snapshotDatabase(db)).toEqual(before);
    expect(reported[0]).toBeGreaterThan(0);
    expect(await computeApi.searchSessions('the')).toEqual([]);
    db.close();
  });

  it('opens a stored session as a document and finds a search hit by its stored id', async () => {
    const { db, repository } = storeFor('worker-open');
    const created = await repository.createSession(
      { title: 'Chat', source: 'chat', model: 'claude-sonnet-4', systemPrompt: null },
      [user('first question'), assistant('answer'), user('the zanzibar question'), assistant('done')],
    );
    if (!created.ok) throw new Error('not stored');
    const [hit] = await computeApi.searchSessions('zanzibar');
    const opened = await computeApi.openStoredSession(
      'open-test',
      created.value.id,
      STRATEGY,
      hit!.messageId,
    );
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.value.messageIndex).toBe(2);
    expect(opened.value.opened.count).toBe(4);
    expect(opened.value.opened.metadata).toMatchObject({ title: 'Chat', model: 'claude-sonnet-4' });
    const missing = await computeApi.openStoredSession('open-test', 'no-such-session', STRATEGY);
    expect(!missing.ok && missing.error.type).toBe('SessionNotFound');
    const lineage = await computeApi.describeLineage(created.value.id, 'hermes-2026-04');
    expect(lineage).toEqual([
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers as any
      { sessionId: created.value.id, description: expect.objectContaining({ messageCount: 4 }) },
    ]);
    const blob = await computeApi.exportLineage({
      sessionId: created.value.id,
      format: 'markdown',
      preset: 'hermes-2026-04',
      timestampIso: '2027-01-15T08:00:00.000Z',
      mimeType: 'text/markdown',
    });
    expect(blob.type).toBe('text/markdown;charset=utf-8');
    expect(await blob.text()).toContain('zanzibar');
    expect((await computeApi.deleteSession(created.value.id)).ok).toBe(true);
    expect(await computeApi.searchSessions('zanzibar')).toEqual([]);
    db.close();
  });

  it('opens a chat session as the request it sends: system prompt first, the chat’s tools, its loop state', async () => {
    const { db, repository } = storeFor('worker-open-chat');
    const state = { ...createCompressorState(), compressionCount: 1, lastPromptTokens: 4_321 };
    const created = await repository.createSession(
      { title: 'Ledger chat', source: 'chat', model: 'claude-haiku-4-5', systemPrompt: 'Be brief.' },
      [user('first question'), assistant('answer'), user('the quokka question'), assistant('done')],
    );
    if (!created.ok) throw new Error('not stored');
    await repository.saveCompressorState(created.value.id, state);
    const imported = await repository.createSession(
      { title: 'Notes', source: 'import', model: null, systemPrompt: 'Be brief.' },
      [system('Be brief.'), user('the quokka notes')],
    );
    if (!imported.ok) throw new Error('not stored');

    const [hit] = (await computeApi.searchSessions('quokka')).filter(
      (candidate) => candidate.sessionId === created.value.id,
    );
    const opened = await computeApi.openStoredSession(
      'chat-open',
      created.value.id,
      STRATEGY,
      hit!.messageId,
    );
    if (!opened.ok) throw new Error('not opened');
    expect(opened.value.opened.count).toBe(5);
    expect(computeApi.documentMessage('chat-open', opened.value.opened.revision, 0)).toEqual(
      system('Be brief.'),
    );
    // The hit is the third stored message: the fourth of the request.
    expect(opened.value.messageIndex).toBe(3);
    expect(opened.value.opened.metadata?.tools).toEqual(BROWSER_TOOL_SCHEMAS);
    expect(opened.value.conversation).toEqual({ compressorState: state, model: 'claude-haiku-4-5' });

    // An import holds its system prompt among its messages already: opened as stored.
    const notes = await computeApi.openStoredSession('chat-open', imported.value.id, STRATEGY);
    if (!notes.ok) throw new Error('not opened');
    expect(notes.value.opened.count).toBe(2);
    expect(notes.value.conversation).toBeNull();
    db.close();
  });

  it('appends a turn to the document it was shown at, and to no other', () => {
    const first = computeApi.openDocument('append-test', [user('one'), assistant('two')], STRATEGY);
    const grown = computeApi.appendToDocument('append-test', first.revision, [user('three')], STRATEGY);
    expect(grown?.count).toBe(3);
    expect(grown!.revision).not.toBe(first.revision);
    expect(grown!.perMessage.slice(0, 2)).toEqual(first.perMessage);
    expect(roleAt(grown!.roles, 2)).toBe('user');
    // Shown at the old revision: something else is there now, so nothing is appended.
    expect(computeApi.appendToDocument('append-test', first.revision, [user('four')], STRATEGY)).toBeNull();
    expect(computeApi.documentRows('append-test', grown!.revision, 0, 10)?.length).toBe(3);
  });

  it("answers appendMessages with the new messages' rough counts and the whole total, as a fresh open would", () => {
    const messages = transcript.messages.slice(0, 300);
    computeApi.openDocument('append-rough', messages.slice(0, 200), STRATEGY);
    const appends = [200, 225, 250, 275].map((start) =>
      computeApi.appendMessages('append-rough', messages.slice(start, start + 25), STRATEGY),
    );
    const appended = appends.at(-1)!;
    const whole = computeApi.openDocument('append-rough-whole', messages, STRATEGY);
    expect(appended.total).toBe(whole.total);
    expect([...appended.perMessage]).toEqual([...whole.perMessage.slice(275)]);
  });
});
