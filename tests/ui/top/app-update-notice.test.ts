// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import type { AppServiceWorkerEvents } from '#io/offline/register-app-service-worker.ts';
import { appShellContext } from '#state/app-shell-context.ts';
import { AppUpdateState } from '#state/app-update-state.svelte.ts';
import { NetworkStatus } from '#state/network-status.svelte.ts';
import AppUpdateNotice from '#ui/top/AppUpdateNotice.svelte';

async function renderNotice() {
  let events: AppServiceWorkerEvents | undefined;
  const activateUpdate = vi.fn(async () => {});
  const update = new AppUpdateState(async (given) => {
    events = given;
    return { activateUpdate };
  });
  await update.start();
  const network = new NetworkStatus({ isOnline: () => true, events: new EventTarget() });
  const view = render(AppUpdateNotice, { context: appShellContext(update, network) });
  const emit = (act: (events: AppServiceWorkerEvents) => void): void => {
    act(events!);
    flushSync();
  };
  return { ...view, emit, activateUpdate };
}

describe('AppUpdateNotice', () => {
  it('shows nothing until the service worker has something to say', async () => {
    const { container } = await renderNotice();
    expect(container.textContent?.trim()).toBe('');
  });

  it('offers Reload and Later when a new version waits, and Reload activates it', async () => {
    const { emit, getByTestId, activateUpdate } = await renderNotice();
    emit((events) => events.onUpdateReady());
    expect(getByTestId('app-update')).toHaveAttribute('role', 'status');
    expect(getByTestId('app-update')).toHaveTextContent('A new version of Context Lab is ready.');
    await fireEvent.click(getByTestId('app-update-reload'));
    expect(activateUpdate).toHaveBeenCalledTimes(1);
    expect(getByTestId('app-update-reload')).toBeDisabled();
  });

  it('goes away on Later, leaving the app as it was', async () => {
    const { emit, getByTestId, queryByTestId, activateUpdate } = await renderNotice();
    emit((events) => events.onUpdateReady());
    await fireEvent.click(getByTestId('app-update-later'));
    expect(queryByTestId('app-update')).toBeNull();
    expect(activateUpdate).not.toHaveBeenCalled();
  });

  it('says once that the app works offline, until dismissed', async () => {
    const { emit, getByTestId, queryByTestId } = await renderNotice();
    emit((events) => events.onOfflineReady());
    expect(getByTestId('offline-ready')).toHaveTextContent('ready to work offline');
    await fireEvent.click(getByTestId('offline-ready-dismiss'));
    expect(queryByTestId('offline-ready')).toBeNull();
  });

  it('lets the notices that ask nothing go by themselves after ten seconds, but keeps a waiting update until answered', async () => {
    vi.useFakeTimers();
    try {
      const offline = await renderNotice();
      offline.emit((events) => events.onOfflineReady());
      vi.advanceTimersByTime(9_000);
      flushSync();
      expect(offline.getByTestId('offline-ready')).toBeInTheDocument();
      vi.advanceTimersByTime(1_000);
      flushSync();
      expect(offline.queryByTestId('offline-ready')).toBeNull();
      offline.unmount();

      const failed = await renderNotice();
      failed.emit((events) => events.onError(new Error('Service workers are disabled')));
      vi.advanceTimersByTime(10_000);
      flushSync();
      expect(failed.queryByTestId('offline-unavailable')).toBeNull();
      failed.unmount();

      const waiting = await renderNotice();
      waiting.emit((events) => events.onUpdateReady());
      vi.advanceTimersByTime(60_000);
      flushSync();
      expect(waiting.getByTestId('app-update')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says why offline use is unavailable when registering failed', async () => {
    const { emit, getByTestId } = await renderNotice();
    emit((events) => events.onError(new Error('Service workers are disabled')));
    expect(getByTestId('offline-unavailable')).toHaveTextContent(
      'Offline use is not available in this browser: Service workers are disabled',
    );
  });
});
