/**
 * The hostile-input suite (issue 21): what an attacker or an unlucky user feeds the app, through
 * the real layers: provider replies through the real clients (mock provider over HTTP), files
 * through the worker's importer, counting and planning through the worker's API, storing and
 * searching through the session repository on fake-indexeddb.
 *
 * `npm test` runs it at CI size (1 MB runs, three kinds of run); `npm run fuzz:hostile` runs it at
 * full size (1 MB and 10 MB runs of every kind). Responsiveness is measured the way a user feels
 * it: plan and import requests are sent every 10 ms while a long count runs, and each must be
 * answered within 100 ms of when it was due (a synchronous stretch of work delays its timer).
 */
import { BROWSER_TOOL_SCHEMAS } from '#core/tools/browser-tool-schemas.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { sanitizeSessionTitle } from '#core/sessions/sanitize-session-title.ts';
import { escapeControlCharacters } from '#core/shared/escape-control-characters.ts';
import { isolateBidi } from '#core/shared/isolate-bidi.ts';
import { matchToolResults } from '#core/transcript/match-tool-results.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import { createChatClient } from '#io/llm/create-chat-client.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import { expectOk, openFixtureRepository, user } from '#tests/helpers/session-repository-fixture.ts';
import { computeApi, type OpenedDocument } from '#worker/compute-api.ts';

/** The worker document imports open as, and its messages read back one by one, as the page would. */
const IMPORTED = 'hostile-imported';
const openedMessages = (opened: OpenedDocument): Message[] =>
  Array.from({ length: opened.count }, (_, index) =>
    computeApi.documentMessage(IMPORTED, opened.revision, index)!,
  );

const FULL = process.env.HOSTILE_SIZE === 'full';
const RUN_SIZES: readonly number[] = FULL ? [1_000_000, 10_000_000] : [1_000_000];
/** One unit repeated: each kind is one pre-tokenised piece, or one search run, of its own class. */
const RUN_KINDS: Readonly<Record<string, string>> = FULL
  ? {
      letters: 'a',
      cjk: '中文',
      spaces: ' ',
      punctuation: '_',
      'line-slash': '\n/',
      accents: 'e\u0301',
      emoji: '🚀',
    }
  : { letters: 'a', cjk: '中文', spaces: ' ' };
/** The longest a plan or import request may wait behind other work (issue 21). */
const MAXIMUM_WAIT_MS = 100;
/** How often the interleaved requests are sent. */
const REQUEST_EVERY_MS = 10;

const provider = useMockProvider();
const planOptions = (estimator: 'rough' | 'o200k_base') => ({
  strategy: 'hermes-2026-04',
  config: DEFAULT_COMPRESSION_CONFIG,
  estimator,
  nowMs: 0,
});
const CHAT = { title: 'Hostile', source: 'import', model: null, systemPrompt: null } as const;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Sends `request` every 10 ms until `work` settles; returns, for each, how long after it was due it
 * was answered. A timer that fires late (the thread was busy) counts against the work.
 */
async function waitsDuring(work: Promise<unknown>, request: (index: number) => Promise<unknown>) {
  let settled = false;
  const watched = work.finally(() => (settled = true));
  const waits: number[] = [];
  for (let index = 0; !settled; index++) {
    const due = performance.now() + REQUEST_EVERY_MS;
    await sleep(REQUEST_EVERY_MS);
    if (settled) break;
    await request(index);
    waits.push(performance.now() - due);
  }
  await watched;
  return waits;
}

/** The run message: a line of ordinary text, the run, a word after it. */
const runMessage = (unit: string, size: number): Message => ({
  role: 'tool',
  tool_call_id: 'call_run',
  content: `output follows:\n${unit.repeat(Math.ceil(size / unit.length))}\ntrailer`,
});

describe('hostile input: duplicate and empty tool call ids', () => {
  const call = (name: string, id: string) => ({ name, arguments: { query: name }, id });

  it.each(['anthropic', 'openai-compatible'] as const)(
    'from a provider (%s): every call of a reply gets its own id, never one the conversation used',
    async (route) => {
      provider
        .mock()
        .script([
          { kind: 'reply', toolCalls: [call('alpha', 'dup'), call('beta', 'dup'), call('gamma', '')] },
        ]);
      const client = await createChatClient(
        {
          provider: route,
          baseUrl: route === 'anthropic' ? provider.mock().url : `${provider.mock().url}/v1`,
          apiKey: 'sk-hostile',
          model: 'claude-sonnet-4-20250514',
        },
        { preset: HERMES_2026_04 },
      );
      const history: Message[] = [
        { role: 'user', content: 'earlier' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'dup', type: 'function', function: { name: 'search_sessions', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'dup', content: 'earlier result' },
        { role: 'user', content: 'now' },
      ];
      // The tools the history calls are offered, as the chat offers them: the Messages API (and
      // the mock) refuse tool blocks without tool definitions.
      const reply = await client.send({
        messages: history,
        tools: [...BROWSER_TOOL_SCHEMAS],
        maxTokens: 256,
        stream: route === 'anthropic',
      });
      expect(reply.message.tool_calls!.map((each) => each.id)).toEqual(['dup~2', 'dup~3', 'call_2']);
      expect(reply.warnings.filter((warning) => warning.feature === 'tool_call.id')).toHaveLength(3);
    },
  );

  it('from a file: repeated ids are renamed, empty ones named, and every result pairs with its call', async () => {
    const text = JSON.stringify({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'x', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
            { id: 'x', type: 'function', function: { name: 'read', arguments: '{"path":"b"}' } },
            { id: '', type: 'function', function: { name: 'read', arguments: '{"path":"c"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'x', content: 'A' },
        { role: 'tool', tool_call_id: 'x', content: 'B' },
        { role: 'assistant', content: 'done' },
      ],
    });
    const imported = await computeApi.importText(text, { openAs: IMPORTED });
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    const messages = openedMessages(imported.value.opened!);
    const ids = messages.flatMap((message) => message.tool_calls ?? []).map((each) => each.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id !== '')).toBe(true);
    const { db, repository } = openFixtureRepository('hostile-file-ids');
    const session = expectOk(await repository.createSession(CHAT, messages));
    const stored = await repository.loadMessages(session.id);
    const results = matchToolResults(stored);
    const assistantIndex = stored.findIndex((message) => Array.isArray(message.tool_calls));
    // The importer drops a result repeating an answered call (with a warning); each kept one answers one call.
    const answered = results[assistantIndex]!.filter((result) => result !== undefined);
    expect(answered).toHaveLength(stored.filter((message) => message.role === 'tool').length);
    expect(new Set(answered).size).toBe(answered.length);
    expect(imported.value.result.warnings.length).toBeGreaterThan(0);
    db.close();
  });

  it('a session stored with repeated ids (before they were made unique) pairs results by position', async () => {
    const { db, repository } = openFixtureRepository('hostile-stored-ids');
    const repeated = (content: string): Message => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_0', type: 'function', function: { name: 't', arguments: content } }],
    });
    const session = expectOk(
      await repository.createSession(CHAT, [
        user('one'),
        repeated('{"turn":1}'),
        { role: 'tool', tool_call_id: 'call_0', content: 'first' },
        user('two'),
        repeated('{"turn":2}'),
        { role: 'tool', tool_call_id: 'call_0', content: 'second' },
      ]),
    );
    const results = matchToolResults(await repository.loadMessages(session.id));
    expect(results[1]![0]?.content).toBe('first');
    expect(results[4]![0]?.content).toBe('second');
    db.close();
  });
});

describe.each(RUN_SIZES)('hostile input: unbroken runs of %d characters', (size) => {
  describe.each(Object.entries(RUN_KINDS))('%s', (kind, unit) => {
    // Waits are wall-clock: on a loaded machine the scheduler alone can hold a thread back for
    // tens of milliseconds, so a responsiveness test gets two more tries before it fails.
    it('counts in linear time while plans and imports are answered within 100 ms', { retry: 2 }, async () => {
      const documentId = `hostile-${kind}-${size}`;
      computeApi.openDocument(
        documentId,
        [user('Here is the output.'), runMessage(unit, size)],
        'hermes-2026-04',
      );
      // The planner's first look at a new document is its own work, not counting's.
      expect((await computeApi.plan(documentId, planOptions('rough'))).ok).toBe(true);
      await computeApi.countText('warm the encoder', 'o200k_base');
      const counting = computeApi.countExact(documentId, 'o200k_base');
      const waits = await waitsDuring(counting, (index) =>
        index % 4 === 3
          ? computeApi.importText('{"messages":[{"role":"user","content":"small"}]}', {})
          : computeApi.plan(documentId, planOptions('rough')),
      );
      const counts = await counting;
      expect(counts.perMessage).toHaveLength(2);
      // Every part is a valid encoding: at least one token, at most one per UTF-8 byte.
      const text = messageText(runMessage(unit, size));
      expect(counts.perMessage[1]!).toBeGreaterThan(0);
      expect(counts.perMessage[1]!).toBeLessThanOrEqual(new TextEncoder().encode(text).length + 16);
      // (A count that ends within the first 10 ms sees no request: nothing waited.)
      expect(Math.max(0, ...waits), `longest wait of ${waits.length}`).toBeLessThanOrEqual(MAXIMUM_WAIT_MS);
      const exactPlan = await computeApi.plan(documentId, planOptions('o200k_base'));
      expect(exactPlan.ok && exactPlan.value.messageCount).toBe(2);
      computeApi.closeDocument(documentId);
    });

    it('is stored and found, the page getting a turn at least every 100 ms', { retry: 2 }, async () => {
      const { db, repository } = openFixtureRepository(`hostile-store-${kind}-${size}`);
      const message = runMessage(unit, size);
      const storing = repository.createSession(CHAT, [user('Here is the output.'), message]);
      // A no-op "frame" every 10 ms: how late each one runs is how long the page was frozen.
      const waits = await waitsDuring(storing, async () => undefined);
      const session = expectOk(await storing);
      expect(Math.max(0, ...waits), `longest wait of ${waits.length}`).toBeLessThanOrEqual(MAXIMUM_WAIT_MS);
      const [, stored] = await repository.loadMessages(session.id);
      expect(stored!.content).toBe(message.content);
      expect((await repository.search('trailer')).map((hit) => hit.role)).toEqual(['tool']);
      db.close();
    });
  });
});

describe('hostile input: UTF-16 (what this layer owns: surrogates, astral characters)', () => {
  const text = `lone \ud800 high, lone \udc00 low, astral 𠀀𠀁𠀂 and 🚀🚀, reversed \udc00\ud800 pair`;

  it('counts, stores and finds text with lone surrogates and astral characters', async () => {
    expect(await computeApi.countText(text, 'o200k_base')).toBeGreaterThan(10);
    expect(await computeApi.countText(text.repeat(3000), 'cl100k_base')).toBeGreaterThan(30_000);
    const { db, repository } = openFixtureRepository('hostile-utf16');
    const session = expectOk(await repository.createSession(CHAT, [user(text)]));
    expect((await repository.loadMessages(session.id))[0]!.content).toBe(text);
    expect((await repository.search('𠀀𠀁')).length).toBe(1);
    expect((await repository.search('reversed')).length).toBe(1);
    db.close();
  });

  it('keeps titles whole code points when it cuts them', () => {
    const title = sanitizeSessionTitle('🚀'.repeat(150))!;
    expect(Array.from(title)).toHaveLength(100);
    expect(title).toBe('🚀'.repeat(100));
  });

  it('imports a UTF-16LE file with a byte-order mark as the text it encodes', async () => {
    const json = JSON.stringify({ messages: [user('héllo 𠀀 wörld')] });
    const units = Array.from({ length: json.length }, (_, i) => json.charCodeAt(i));
    const encoded = new Uint8Array([0xff, 0xfe, ...units.flatMap((unit) => [unit & 0xff, unit >> 8])]);
    const imported = await computeApi.importFile(new Blob([encoded]), { openAs: IMPORTED });
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(openedMessages(imported.value.opened!)[0]!.content).toBe('héllo 𠀀 wörld');
  });
});

describe('hostile input: control characters', () => {
  const controls = 'bell \u0007 escape \u001b]0;owned\u0007 csi \u009b31m null \u0000 del \u007f end';

  it('imports, counts, stores and finds a transcript full of control characters, keeping them as they are', async () => {
    const imported = await computeApi.importText(
      JSON.stringify({ messages: [user(controls), { role: 'assistant', content: controls }] }),
      { openAs: IMPORTED },
    );
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    const messages = openedMessages(imported.value.opened!);
    expect(messages[0]!.content).toBe(controls);
    expect(await computeApi.countText(controls, 'o200k_base')).toBeGreaterThan(5);
    const { db, repository } = openFixtureRepository('hostile-controls');
    const session = expectOk(await repository.createSession(CHAT, messages));
    expect((await repository.loadMessages(session.id))[1]!.content).toBe(controls);
    expect(await repository.search('escape owned')).toHaveLength(2);
    db.close();
  });

  it('shows an import error that quotes control characters with visible escapes', async () => {
    const imported = await computeApi.importText(`\u001b]0;owned\u0007 not json`, {});
    expect(imported.ok).toBe(false);
    if (imported.ok) return;
    expect(escapeControlCharacters(imported.error.message)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});

describe('hostile input: deep nesting', () => {
  it.each([1000, 100_000])(
    'a file nested %d levels deep is imported or refused, never a crash',
    async (depth) => {
      const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const text = `{"messages":[{"role":"user","content":"hi","extra":${nested}},{"role":"assistant","content":"ok"}]}`;
      const imported = await computeApi.importText(text, { openAs: IMPORTED });
      if (!imported.ok) {
        expect(imported.error.message.length).toBeGreaterThan(0);
        return;
      }
      const { db, repository } = openFixtureRepository(`hostile-nested-${depth}`);
      expectOk(await repository.createSession(CHAT, openedMessages(imported.value.opened!)));
      db.close();
    },
  );

  it('counts, stores, finds and plans tool arguments that are deeply nested JSON text', async () => {
    const depth = 20_000;
    const argumentsText = `${'{"a":'.repeat(depth)}"needle"${'}'.repeat(depth)}`;
    const messages: Message[] = [
      user('call it'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'deep_tool', arguments: argumentsText } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
    ];
    computeApi.openDocument('hostile-deep-arguments', messages, 'hermes-2026-04');
    const counts = await computeApi.countExact('hostile-deep-arguments', 'o200k_base');
    expect(counts.perMessage[1]!).toBeGreaterThan(depth);
    const planned = await computeApi.plan('hostile-deep-arguments', planOptions('o200k_base'));
    expect(planned.ok).toBe(true);
    const { db, repository } = openFixtureRepository('hostile-deep-arguments');
    expectOk(await repository.createSession(CHAT, messages));
    expect((await repository.search('needle')).map((hit) => hit.role)).toEqual(['assistant']);
    db.close();
  });
});

describe('hostile input: bidirectional controls', () => {
  it('strips them from titles and isolates user strings in composed text', async () => {
    const { db, repository } = openFixtureRepository('hostile-bidi');
    const session = expectOk(
      await repository.createSession({ ...CHAT, title: 'invoice\u202Efdp.exe\u2066x\u2069' }, [
        user('pay \u202Eyap\u202C now'),
      ]),
    );
    expect(session.title).toBe('invoicefdp.exex');
    expect(isolateBidi('a\u2069\u202Eb')).toBe('\u2068a\u202Eb\u2069');
    // Search reads through the controls: they separate words, they are not part of one.
    expect((await repository.search('yap')).length).toBe(1);
    expect(await computeApi.countText('pay \u202Eyap\u202C now', 'o200k_base')).toBeGreaterThan(3);
    db.close();
  });
});
