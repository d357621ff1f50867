/**
 * Pins through the worker (ROUND2 §3): the plan, the replay's compaction and the comparison
 * keep the pinned messages; a compaction's result says where they stand in it (so a replay of
 * the result keeps them too); storing a document stores its pins, opening a session returns
 * them, and pinning a message of a stored transcript writes its row.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { FATE } from '#core/strategies/strategy.ts';
import type { Message } from '#core/transcript/message.ts';
import { computeApi } from '#worker/compute-api.ts';
import { useSessionStore } from '#worker/worker-session-store.ts';
import { expectOk, openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';

const STRATEGY = 'hermes-2026-04';
const demo = buildDemoTranscript();
const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 };
/** #23, an assistant answer Hermes summarises at a 64K window. */
const PIN = 23;
const ROUTE = {
  model: 'claude-sonnet-4-6',
  provider: 'anthropic',
  baseUrl: '',
  apiMode: 'anthropic_messages',
  cacheTtl: '5m',
  promptCaching: true,
} as const;

afterEach(() => useSessionStore(null));

function storeFor(label: string) {
  const fixture = openFixtureRepository(label);
  useSessionStore(fixture.repository);
  return fixture;
}

const open = (documentId: string, messages: Message[] = demo.messages) =>
  computeApi.openDocument(
    documentId,
    messages,
    STRATEGY,
    { tools: demo.metadata.tools ?? [] },
    demo.metadata,
  );

describe('computeApi with pins', () => {
  it('plans, compacts and compacts the result again with the pinned message kept verbatim', async () => {
    open('pins-replay');
    const plan = expectOk(
      await computeApi.plan('pins-replay', { strategy: STRATEGY, config, estimator: 'rough', pinned: [PIN] }),
    );
    expect(plan.wouldCompress).toBe(true);
    expect(plan.fates[PIN]).toBe(FATE.kept);
    expect(plan.pins?.map((pin) => [pin.index, pin.rescued])).toEqual([[PIN, 'summarized']]);

    const first = expectOk(
      await computeApi.compress(
        'pins-replay',
        { strategy: STRATEGY, config, pinned: [PIN], openResultAs: 'pins-replay-1' },
        null,
      ),
    );
    expect(first.skipped).toBeNull();
    expect(first.notes).toContain(
      'Pinned message #23 kept verbatim: this strategy would have summarised it.',
    );
    expect(first.assessment?.missingPins).toEqual([]);
    // The pin follows its message: the result says where it stands now, and it is the same message.
    expect(first.pinned).toHaveLength(1);
    expect(first.messages[first.pinned[0]!]).toEqual(demo.messages[PIN]);
    expect(first.messages.filter((message) => message.content === demo.messages[PIN]!.content)).toHaveLength(
      1,
    );

    // Replaying the result with its pins keeps the message again.
    const second = expectOk(
      await computeApi.compress(
        'pins-replay-1',
        {
          strategy: STRATEGY,
          config: { ...config, contextLength: 16_000 },
          state: first.state,
          pinned: first.pinned,
        },
        null,
      ),
    );
    if (second.skipped === null) {
      expect(second.pinned).toHaveLength(1);
      expect(second.messages[second.pinned[0]!]).toEqual(demo.messages[PIN]);
    } else expect(second.pinned).toEqual(first.pinned);

    // Without pins the same compaction summarises it.
    const unpinned = expectOk(await computeApi.compress('pins-replay', { strategy: STRATEGY, config }, null));
    expect(unpinned.pinned).toEqual([]);
    expect(unpinned.messages.some((message) => message.content === demo.messages[PIN]!.content)).toBe(false);
  });

  it('compares every entry with the pins kept', async () => {
    open('pins-compare');
    const compared = expectOk(
      await computeApi.compare('pins-compare', {
        runId: 'pins-compare-run',
        entries: [{ strategy: 'hermes-2026-04' }, { strategy: 'claude-code' }],
        config,
        estimator: 'rough',
        route: ROUTE,
        simulate: false,
        pinned: [PIN],
      }),
    );
    for (const row of compared.rows) {
      expect(row.notes).toContain(
        'Pinned message #23 kept verbatim: this strategy would have summarised it.',
      );
      expect(row.explanation).toContain('1 pinned message kept verbatim.');
    }
  });

  it('stores a document with its pins, opens the session with them, and stores a pin changed later', async () => {
    const { db, repository } = storeFor('pins-store');
    const opened = open('pins-store');
    const stored = expectOk(
      await computeApi.storeDocument({
        documentId: 'pins-store',
        revision: opened.revision,
        session: { title: 'Demo', source: 'demo', model: null, systemPrompt: null },
        pinned: [PIN],
      }),
    );
    const reopened = expectOk(await computeApi.openStoredSession('pins-reopened', stored.id, STRATEGY));
    expect(reopened.pinned).toEqual([PIN]);

    // The stored document had no stored ids: they are found in the session (same messages) and kept.
    expectOk(
      await computeApi.pinStoredMessage({
        sessionId: stored.id,
        documentId: 'pins-store',
        revision: opened.revision,
        index: 1,
        pinned: true,
      }),
    );
    // The reopened document knows its ids from the start.
    expectOk(
      await computeApi.pinStoredMessage({
        sessionId: stored.id,
        documentId: 'pins-reopened',
        revision: reopened.opened.revision,
        index: PIN,
        pinned: false,
      }),
    );
    const entries = await repository.loadMessageEntries(stored.id);
    expect(entries.flatMap((entry, index) => (entry.pinned ? [index] : []))).toEqual([1]);
    expect(expectOk(await computeApi.openStoredSession('pins-reopened', stored.id, STRATEGY)).pinned).toEqual(
      [1],
    );
    db.close();
  });

  it('refuses to pin when the document on screen is not what the session stores', async () => {
    const { db, repository } = storeFor('pins-drift');
    const opened = open('pins-drift');
    const stored = expectOk(
      await computeApi.storeDocument({
        documentId: 'pins-drift',
        revision: opened.revision,
        session: { title: 'Demo', source: 'demo', model: null, systemPrompt: null },
      }),
    );
    // The page shows another transcript in the same document now (the session still holds the demo).
    const other = open(
      'pins-drift',
      demo.messages.map((message, index) => (index === 5 ? { ...message, content: 'changed' } : message)),
    );
    const stale = await computeApi.pinStoredMessage({
      sessionId: stored.id,
      documentId: 'pins-drift',
      revision: opened.revision,
      index: 5,
      pinned: true,
    });
    expect(stale).toMatchObject({ ok: false, error: { type: 'DocumentChanged' } });
    const drifted = await computeApi.pinStoredMessage({
      sessionId: stored.id,
      documentId: 'pins-drift',
      revision: other.revision,
      index: 5,
      pinned: true,
    });
    expect(drifted).toMatchObject({ ok: false, error: { type: 'DocumentChanged' } });
    const entries = await repository.loadMessageEntries(stored.id);
    expect(entries.some((entry) => entry.pinned)).toBe(false);
    db.close();
  });
});
