/**
 * Pins from the message list to storage and back, through the real worker API in this realm
 * and a fixture database: the demo keeps its pins in memory until it is stored (by the replay's
 * save), the saved compaction stores the pins where they stand in its result, the result opens
 * with them, and reopening the demo's session restores its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { FATE } from '#core/strategies/strategy.ts';
import type { ComputeClient } from '#io/compute/compute-client.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { AppState } from '#state/app-state.svelte.ts';
import { sessionStoreFromRepository } from '#state/repository-session-store.ts';
import { computeApi } from '#worker/compute-api.ts';
import { useSessionStore } from '#worker/worker-session-store.ts';
import { openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';

const demo = buildDemoTranscript();
/** #23: an assistant answer in the middle Hermes 2026-04 summarises. */
const PIN = 23;

afterEach(() => useSessionStore(null));

function inProcessCompute(): ComputeClient {
  return {
    generation: 1,
    isRunning: true,
    run: <T>(task: (remote: typeof computeApi) => T) => Promise.resolve(task(computeApi)),
  } as unknown as ComputeClient;
}

const pinnedRows = async (
  repository: ReturnType<typeof openFixtureRepository>['repository'],
  sessionId: string,
): Promise<number[]> =>
  (await repository.loadMessageEntries(sessionId)).flatMap((entry, index) => (entry.pinned ? [index] : []));

describe('AppState with pins', () => {
  it('keeps the demo’s pins in memory, stores them with it and its compaction, and restores them on reopening', async () => {
    const { db, repository } = openFixtureRepository('app-state-pins');
    useSessionStore(repository);
    const compute = inProcessCompute();
    const app = new AppState({
      compute,
      settingsRepository: new SettingsRepository(db),
      sessions: sessionStoreFromRepository(repository, compute),
      today: () => '2027-01-15',
    });
    await app.start();
    await app.provider.setContextWindow(64_000);
    app.plan.refresh();
    await expect.poll(() => app.plan.plan?.windowTokens).toBe(64_000);
    expect(app.plan.plan!.fates[PIN]).toBe(FATE.summarized);

    // Unstored: the pin is the page's alone, and the plan keeps the message.
    await app.transcript.togglePin(PIN);
    expect(app.transcript.pins.indices).toEqual([PIN]);
    expect(await repository.listSessions()).toEqual([]);
    await expect
      .poll(() => app.plan.plan?.pins?.map((pin) => [pin.index, pin.rescued]))
      .toEqual([[PIN, 'summarized']]);
    expect(app.plan.plan!.fates[PIN]).toBe(FATE.kept);
    // The system prompt cannot be pinned.
    await app.transcript.togglePin(0);
    expect(app.transcript.pins.indices).toEqual([PIN]);

    await app.replay.runAll();
    const result = app.replay.current!.compression!;
    expect(result.skipped).toBeNull();
    expect(result.notes).toContain(
      'Pinned message #23 kept verbatim: this strategy would have summarised it.',
    );
    expect(result.pinned.map((index) => result.messages[index])).toEqual([demo.messages[PIN]]);

    app.replay.saveAsContinuation();
    await app.replay.review!.commit();
    await expect.poll(() => app.replay.current?.saved?.id ?? null).not.toBeNull();
    const demoSessionId = app.currentSessionId!;
    const continuation = app.replay.current!.saved!.id;
    // 2026-04 rotates: the demo is stored with its pin, the continuation with the pin where it stands now.
    expect(continuation).not.toBe(demoSessionId);
    expect(await pinnedRows(repository, demoSessionId)).toEqual([PIN]);
    expect(await pinnedRows(repository, continuation)).toEqual([...result.pinned]);

    // The result opens with its pins, and a pin made there is stored on the continuation.
    await app.openReplayResult();
    expect(app.transcript.pins.indices).toEqual([...result.pinned]);
    const answer = result.messages.findLastIndex((message) => message.role === 'assistant');
    expect(result.pinned).not.toContain(answer);
    await app.transcript.togglePin(answer);
    expect(app.transcript.pins.error).toBeNull();
    expect(await pinnedRows(repository, continuation)).toEqual(
      [...result.pinned, answer].sort((a, b) => a - b),
    );

    // Reopening the demo's session restores its own pin.
    await app.openSession(demoSessionId);
    expect(app.transcript.pins.indices).toEqual([PIN]);
    // Unpinning there is stored at once.
    await app.transcript.togglePin(PIN);
    expect(await pinnedRows(repository, demoSessionId)).toEqual([]);
    db.close();
  });
});
