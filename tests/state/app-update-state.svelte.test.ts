import { describe, expect, it, vi } from 'vitest';
import type { AppServiceWorkerEvents } from '#io/offline/register-app-service-worker.ts';
import { AppUpdateState } from '#state/app-update-state.svelte.ts';

/** A registration the test drives: it captures the events and counts update activations. */
function fakeServiceWorker() {
  let events: AppServiceWorkerEvents | undefined;
  const activateUpdate = vi.fn(async () => {});
  const register = vi.fn(async (given: AppServiceWorkerEvents) => {
    events = given;
    return { activateUpdate };
  });
  const emit = (): AppServiceWorkerEvents => {
    if (!events) throw new Error('not registered');
    return events;
  };
  return { register, activateUpdate, emit };
}

describe('AppUpdateState', () => {
  it('does nothing without a service worker (dev server, unit tests)', async () => {
    const state = new AppUpdateState(null);
    await state.start();
    expect([state.updateReady, state.offlineReady, state.error]).toEqual([false, false, null]);
    await state.reload();
    expect(state.reloading).toBe(false);
  });

  it('registers once and reports when the app is ready to work offline', async () => {
    const worker = fakeServiceWorker();
    const state = new AppUpdateState(worker.register);
    await state.start();
    await state.start();
    expect(worker.register).toHaveBeenCalledTimes(1);
    expect(state.offlineReady).toBe(false);
    worker.emit().onOfflineReady();
    expect(state.offlineReady).toBe(true);
    state.dismissOfflineReady();
    expect(state.offlineReady).toBe(false);
  });

  it('offers a waiting version and activates it on Reload, once', async () => {
    const worker = fakeServiceWorker();
    const state = new AppUpdateState(worker.register);
    await state.start();
    // Before an update is waiting, Reload has nothing to activate.
    await state.reload();
    expect(worker.activateUpdate).not.toHaveBeenCalled();
    worker.emit().onOfflineReady();
    worker.emit().onUpdateReady();
    // The update replaces the offline note: one notice at a time, the one that needs an answer.
    expect([state.updateReady, state.offlineReady]).toEqual([true, false]);
    worker.emit().onOfflineReady();
    expect(state.offlineReady).toBe(false);
    const first = state.reload();
    expect(state.reloading).toBe(true);
    await Promise.all([first, state.reload()]);
    expect(worker.activateUpdate).toHaveBeenCalledTimes(1);
  });

  it('lets the user put the update off', async () => {
    const worker = fakeServiceWorker();
    const state = new AppUpdateState(worker.register);
    await state.start();
    worker.emit().onUpdateReady();
    state.dismissUpdate();
    expect(state.updateReady).toBe(false);
    await state.reload();
    expect(worker.activateUpdate).not.toHaveBeenCalled();
  });

  it('says why offline use is unavailable when the registration fails, without throwing', async () => {
    const failing = new AppUpdateState(async () => {
      throw new Error('The operation is insecure.');
    });
    await failing.start();
    expect(failing.error).toBe('The operation is insecure.');

    const worker = fakeServiceWorker();
    const reported = new AppUpdateState(worker.register);
    await reported.start();
    worker.emit().onError(new TypeError('Failed to register a ServiceWorker: 404'));
    expect(reported.error).toBe('Failed to register a ServiceWorker: 404');
    reported.dismissError();
    expect(reported.error).toBeNull();
  });

  it('lets Reload be tried again when activating the update fails', async () => {
    const worker = fakeServiceWorker();
    worker.activateUpdate.mockRejectedValueOnce(new Error('no waiting worker'));
    const state = new AppUpdateState(worker.register);
    await state.start();
    worker.emit().onUpdateReady();
    await state.reload();
    expect([state.reloading, state.error]).toEqual([false, 'no waiting worker']);
    await state.reload();
    expect(worker.activateUpdate).toHaveBeenCalledTimes(2);
  });
});
