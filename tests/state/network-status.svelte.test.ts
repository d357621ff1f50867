import { describe, expect, it } from 'vitest';
import { NetworkStatus } from '#state/network-status.svelte.ts';

/** The browser's side: a switchable `onLine` and the window's online/offline events. */
function fakeBrowser(online: boolean) {
  const events = new EventTarget();
  const browser = {
    online,
    events,
    set(next: boolean): void {
      browser.online = next;
      events.dispatchEvent(new Event(next ? 'online' : 'offline'));
    },
  };
  return browser;
}

describe('NetworkStatus', () => {
  it('starts from navigator.onLine and follows the online and offline events', () => {
    const browser = fakeBrowser(false);
    const status = new NetworkStatus({ isOnline: () => browser.online, events: browser.events });
    expect(status.online).toBe(false);
    status.start();
    browser.set(true);
    expect(status.online).toBe(true);
    browser.set(false);
    expect(status.online).toBe(false);
  });

  it('stops following the events after stop', () => {
    const browser = fakeBrowser(true);
    const status = new NetworkStatus({ isOnline: () => browser.online, events: browser.events });
    status.start();
    status.start();
    status.stop();
    browser.set(false);
    expect(status.online).toBe(true);
  });

  it('reads the state again on start, for a change between construction and start', () => {
    const browser = fakeBrowser(true);
    const status = new NetworkStatus({ isOnline: () => browser.online, events: browser.events });
    browser.online = false;
    status.start();
    expect(status.online).toBe(false);
  });
});
