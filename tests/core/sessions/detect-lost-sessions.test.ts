import { describe, expect, it } from 'vitest';
import { detectLostSessions } from '#core/sessions/detect-lost-sessions.ts';

describe('detectLostSessions', () => {
  it('counts the sessions gone when the newest one seen last time is missing', () => {
    expect(detectLostSessions({ count: 12, newestId: 'a' }, { count: 0, newestIdPresent: false })).toBe(12);
    expect(detectLostSessions({ count: 12, newestId: 'a' }, { count: 2, newestIdPresent: false })).toBe(10);
  });

  it('reports nothing on a first run or an empty last run', () => {
    expect(detectLostSessions(null, { count: 0, newestIdPresent: false })).toBe(0);
    expect(detectLostSessions({ count: 0, newestId: null }, { count: 0, newestIdPresent: false })).toBe(0);
  });

  it('reports nothing while the newest session seen is still there', () => {
    expect(detectLostSessions({ count: 5, newestId: 'a' }, { count: 3, newestIdPresent: true })).toBe(0);
  });

  it('reports nothing when the store holds as many sessions as before', () => {
    expect(detectLostSessions({ count: 2, newestId: 'a' }, { count: 4, newestIdPresent: false })).toBe(0);
  });
});
