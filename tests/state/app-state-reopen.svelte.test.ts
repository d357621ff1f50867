/**
 * A reload lands where the user was: the stored session the lab showed last is reopened at the
 * next start (a second AppState on the same database stands in for the reload), the demo when
 * the user chose it or the session is gone. Real worker API in this realm, fixture database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import type { ComputeClient } from '#io/compute/compute-client.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { AppState, WORKSPACE_SESSION_SETTING_KEY } from '#state/app-state.svelte.ts';
import { sessionStoreFromRepository } from '#state/repository-session-store.ts';
import { computeApi } from '#worker/compute-api.ts';
import { useSessionStore } from '#worker/worker-session-store.ts';
import { openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';

const demo = buildDemoTranscript();

afterEach(() => useSessionStore(null));

function inProcessCompute(): ComputeClient {
  return {
    generation: 1,
    isRunning: true,
    run: <T>(task: (remote: typeof computeApi) => T) => Promise.resolve(task(computeApi)),
  } as unknown as ComputeClient;
}

type Fixture = ReturnType<typeof openFixtureRepository>;

/** A fresh page on the same database: a new AppState, started. */
async function startApp({ db, repository }: Fixture): Promise<AppState> {
  const compute = inProcessCompute();
  const app = new AppState({
    compute,
    settingsRepository: new SettingsRepository(db),
    sessions: sessionStoreFromRepository(repository, compute),
    today: () => '2027-01-15',
  });
  await app.start();
  return app;
}

/** Notes, at each write of the workspace setting, how many messages the screen showed. */
class WatchedSettings extends SettingsRepository {
  readonly shownAtWrite: (number | undefined)[] = [];
  shown: () => number | undefined = () => undefined;

  override async set(key: string, value: unknown): Promise<void> {
    if (key === WORKSPACE_SESSION_SETTING_KEY) this.shownAtWrite.push(this.shown());
    await super.set(key, value);
  }
}

/**
 * The stored value is `expected` now: the call that changed the workspace has resolved, and a
 * reload at that moment must land on it (no polling: the write is part of the change).
 */
async function expectRemembered(fixture: Fixture, expected: unknown): Promise<void> {
  expect((await fixture.db.settings.get(WORKSPACE_SESSION_SETTING_KEY))?.value ?? null).toEqual(expected);
}

/** The demo, stored as a session the way the replay's save stores it, and its continuation. */
async function saveDemoContinuation(app: AppState): Promise<{ demoId: string; continuationId: string }> {
  await app.replay.runAll();
  app.replay.saveAsContinuation();
  await app.replay.review!.commit();
  await expect.poll(() => app.replay.current?.saved?.id ?? null).not.toBeNull();
  return { demoId: app.currentSessionId!, continuationId: app.replay.current!.saved!.id };
}

describe('AppState at the next start', () => {
  it('opens the demo when nothing was stored', async () => {
    const fixture = openFixtureRepository('app-state-reopen-empty');
    useSessionStore(fixture.repository);
    const app = await startApp(fixture);
    expect(app.startError).toBeNull();
    expect(app.currentSource).toBe('demo');
    expect(app.transcript.view?.count).toBe(demo.messages.length);
    fixture.db.close();
  });

  it('reopens the stored session the lab showed last: the opened replay result, then a session opened from the list', async () => {
    const fixture = openFixtureRepository('app-state-reopen-last');
    useSessionStore(fixture.repository);
    const first = await startApp(fixture);
    const { demoId, continuationId } = await saveDemoContinuation(first);
    // Saving stored the demo, which is what the lab shows: it is remembered as the stored demo.
    await expectRemembered(fixture, { sessionId: demoId, origin: 'demo' });
    await first.openReplayResult();
    // Saved, the result on screen is a stored session from a replay (the top bar says so).
    expect(first.currentSessionOrigin).toBe('replay');
    const shown = first.transcript.view!.count;
    expect(shown).toBeLessThan(demo.messages.length);
    await expectRemembered(fixture, { sessionId: continuationId, origin: 'replay' });

    const second = await startApp(fixture);
    expect(second.startError).toBeNull();
    expect(second.currentSource).toBe('session');
    expect(second.currentSessionId).toBe(continuationId);
    expect(second.currentSessionOrigin).toBe('replay');
    expect(second.transcript.view?.count).toBe(shown);

    await second.openSession(demoId, null, 'demo');
    await expectRemembered(fixture, { sessionId: demoId, origin: 'demo' });
    const third = await startApp(fixture);
    expect(third.currentSessionId).toBe(demoId);
    expect(third.transcript.view?.count).toBe(demo.messages.length);
    fixture.db.close();
  });

  it('remembers an import once it is stored', async () => {
    const fixture = openFixtureRepository('app-state-reopen-import');
    useSessionStore(fixture.repository);
    const app = await startApp(fixture);
    const text = JSON.stringify(
      ['Where is the config?', 'In settings.toml.', 'Rename it to app.toml.', 'Done.'].map(
        (content, index) => ({
          role: index % 2 === 0 ? 'user' : 'assistant',
          content,
        }),
      ),
    );
    await app.importer.importText(text);
    await expect.poll(() => app.currentSessionId).not.toBeNull();
    const imported = app.currentSessionId!;
    await expectRemembered(fixture, { sessionId: imported, origin: 'import' });

    const next = await startApp(fixture);
    expect(next.currentSessionId).toBe(imported);
    expect(next.currentSessionOrigin).toBe('import');
    expect(next.transcript.view?.count).toBe(4);
    expect(next.transcript.view?.metadata.title ?? null).toBe(app.transcript.view?.metadata.title ?? null);
    fixture.db.close();
  });

  it('forgets it when the user goes back to the demo', async () => {
    const fixture = openFixtureRepository('app-state-reopen-demo');
    useSessionStore(fixture.repository);
    const first = await startApp(fixture);
    const { continuationId } = await saveDemoContinuation(first);
    await first.openReplayResult();
    await expectRemembered(fixture, { sessionId: continuationId, origin: 'replay' });
    await first.showDemo();
    await expectRemembered(fixture, null);

    const next = await startApp(fixture);
    expect(next.currentSource).toBe('demo');
    expect(next.currentSessionId).toBeNull();
    fixture.db.close();
  });

  it('opens the demo, with no error, when the session is gone, and forgets it', async () => {
    const fixture = openFixtureRepository('app-state-reopen-gone');
    useSessionStore(fixture.repository);
    const first = await startApp(fixture);
    const { continuationId } = await saveDemoContinuation(first);
    await first.openReplayResult();
    await expectRemembered(fixture, { sessionId: continuationId, origin: 'replay' });
    expect((await fixture.repository.deleteSession(continuationId)).ok).toBe(true);

    const next = await startApp(fixture);
    expect(next.startError).toBeNull();
    expect(next.currentSource).toBe('demo');
    expect(next.transcript.status).not.toBe('error');
    expect(next.transcript.view?.count).toBe(demo.messages.length);
    await expectRemembered(fixture, null);
    fixture.db.close();
  });

  it('ignores a malformed setting and opens the demo', async () => {
    const fixture = openFixtureRepository('app-state-reopen-malformed');
    useSessionStore(fixture.repository);
    await new SettingsRepository(fixture.db).set(WORKSPACE_SESSION_SETTING_KEY, { sessionId: 42 });
    const app = await startApp(fixture);
    expect(app.startError).toBeNull();
    expect(app.currentSource).toBe('demo');
    fixture.db.close();
  });
});

describe('AppState writing down the session it shows', () => {
  it('stores it before the screen changes, and takes it back when the session cannot be opened', async () => {
    const fixture = openFixtureRepository('app-state-remember-first');
    useSessionStore(fixture.repository);
    const first = await startApp(fixture);
    const { demoId, continuationId } = await saveDemoContinuation(first);
    await first.openReplayResult();
    const compacted = first.transcript.view!.count;

    const settings = new WatchedSettings(fixture.db);
    const compute = inProcessCompute();
    const app = new AppState({
      compute,
      settingsRepository: settings,
      sessions: sessionStoreFromRepository(fixture.repository, compute),
      today: () => '2027-01-15',
    });
    settings.shown = () => app.transcript.view?.count;
    await app.start();
    expect(app.currentSessionId).toBe(continuationId);
    await app.openSession(demoId, null, 'demo');
    // Written while the continuation was still on screen: a reload once the demo shows lands on it.
    expect(settings.shownAtWrite).toEqual([compacted]);
    await expectRemembered(fixture, { sessionId: demoId, origin: 'demo' });

    await expect(app.openSession('no-such-session', null, 'import')).rejects.toThrow();
    expect(app.currentSessionId).toBe(demoId);
    await expectRemembered(fixture, { sessionId: demoId, origin: 'demo' });
    fixture.db.close();
  });
});

describe('AppState after an undo or redo in Sessions', () => {
  it('shows the live session of the conversation it shows, and remembers that one', async () => {
    const fixture = openFixtureRepository('app-state-history-change');
    useSessionStore(fixture.repository);
    const app = await startApp(fixture);
    const { demoId, continuationId } = await saveDemoContinuation(app);
    await app.openReplayResult();
    const compacted = app.transcript.view!.count;
    const [epoch] = await fixture.repository.listConversationCompactions(continuationId);

    // Undone: the demo's session is live again, the continuation on screen an undone branch.
    const undone = await fixture.repository.undoCompaction(continuationId, { expectedEpochId: epoch!.id });
    expect(undone.ok).toBe(true);
    await app.reloadIfShowing({ sessionIds: [demoId, continuationId], liveSessionId: demoId }, 'demo');
    expect(app.currentSessionId).toBe(demoId);
    expect(app.transcript.view?.count).toBe(demo.messages.length);
    await expectRemembered(fixture, { sessionId: demoId, origin: 'demo' });

    // Redone: the continuation is the live tip again.
    const redone = await fixture.repository.redoCompaction(demoId, { expectedEpochId: epoch!.id });
    expect(redone.ok).toBe(true);
    await app.reloadIfShowing(
      { sessionIds: [demoId, continuationId], liveSessionId: continuationId },
      'demo',
    );
    expect(app.currentSessionId).toBe(continuationId);
    expect(app.transcript.view?.count).toBe(compacted);
    fixture.db.close();
  });

  it('follows it while the session it shows is still being opened', async () => {
    const fixture = openFixtureRepository('app-state-history-opening');
    useSessionStore(fixture.repository);
    const app = await startApp(fixture);
    const { demoId, continuationId } = await saveDemoContinuation(app);
    const [epoch] = await fixture.repository.listConversationCompactions(continuationId);
    expect((await fixture.repository.undoCompaction(continuationId, { expectedEpochId: epoch!.id })).ok).toBe(
      true,
    );
    // The continuation is being opened (a reload's reopen, say) when the undo is announced.
    const opening = app.openSession(continuationId, null, 'demo');
    expect(app.currentSessionId).toBeNull();
    await app.reloadIfShowing({ sessionIds: [demoId, continuationId], liveSessionId: demoId }, 'demo');
    expect(await opening).toBe(false);
    expect(app.currentSessionId).toBe(demoId);
    expect(app.transcript.view?.count).toBe(demo.messages.length);
    fixture.db.close();
  });

  it('leaves another transcript on screen alone', async () => {
    const fixture = openFixtureRepository('app-state-history-other');
    useSessionStore(fixture.repository);
    const app = await startApp(fixture);
    const { demoId, continuationId } = await saveDemoContinuation(app);
    await app.showDemo();
    await app.reloadIfShowing({ sessionIds: [demoId, continuationId], liveSessionId: demoId }, 'demo');
    expect(app.currentSource).toBe('demo');
    expect(app.currentSessionId).toBeNull();
    fixture.db.close();
  });
});
