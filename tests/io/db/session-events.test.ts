import { describe, expect, it } from 'vitest';
import {
  parseSessionEvent,
  SessionEvents,
  type BroadcastChannelLike,
  type SessionEvent,
} from '#io/db/session-events.ts';

/** Channels of one name in one process, delivering to every other member like BroadcastChannel. */
function createChannelHub(): () => BroadcastChannelLike {
  const members = new Set<{ listeners: Set<(event: { data: unknown }) => void> }>();
  return () => {
    const member = { listeners: new Set<(event: { data: unknown }) => void>() };
    members.add(member);
    return {
      postMessage: (data) => {
        for (const other of members)
          if (other !== member)
            for (const listener of other.listeners) listener({ data: structuredClone(data) });
      },
      addEventListener: (_type, listener) => member.listeners.add(listener),
      removeEventListener: (_type, listener) => member.listeners.delete(listener),
      close: () => members.delete(member),
    };
  };
}

describe('SessionEvents', () => {
  it('delivers an event to the other tabs but not back to the sender', () => {
    const open = createChannelHub();
    const tabA = new SessionEvents(open());
    const tabB = new SessionEvents(open());
    const heardByA: SessionEvent[] = [];
    const heardByB: SessionEvent[] = [];
    tabA.subscribe((event) => heardByA.push(event));
    const unsubscribe = tabB.subscribe((event) => heardByB.push(event));
    tabA.publish({ type: 'session-rotated', oldId: 'old', newId: 'new' });
    expect(heardByB).toEqual([{ type: 'session-rotated', oldId: 'old', newId: 'new' }]);
    expect(heardByA).toEqual([]);
    unsubscribe();
    tabA.publish({ type: 'session-updated', id: 'new' });
    expect(heardByB).toHaveLength(1);
    tabA.close();
    tabB.close();
  });

  it('works over the real BroadcastChannel', async () => {
    const tabA = new SessionEvents();
    const tabB = new SessionEvents();
    const heard = new Promise<SessionEvent>((resolve) => tabB.subscribe(resolve));
    tabA.publish({ type: 'session-updated', id: 's1' });
    expect(await heard).toEqual({ type: 'session-updated', id: 's1' });
    tabA.close();
    tabB.close();
  });

  it('does nothing without a channel', () => {
    const events = new SessionEvents(null);
    expect(() => events.publish({ type: 'session-deleted', id: 'x' })).not.toThrow();
    events.close();
  });
});

describe('parseSessionEvent', () => {
  it('accepts well-formed events and drops anything else', () => {
    expect(parseSessionEvent({ type: 'session-created', id: 'a', extra: 1 })).toEqual({
      type: 'session-created',
      id: 'a',
    });
    expect(parseSessionEvent({ type: 'session-rotated', oldId: 'a', newId: 'b' })).toEqual({
      type: 'session-rotated',
      oldId: 'a',
      newId: 'b',
    });
    expect(parseSessionEvent({ type: 'session-rotated', oldId: 'a' })).toBeNull();
    expect(parseSessionEvent({ type: 'session-updated', id: 7 })).toBeNull();
    expect(parseSessionEvent({ type: 'something-else', id: 'a' })).toBeNull();
    expect(parseSessionEvent('session-updated')).toBeNull();
  });
});
