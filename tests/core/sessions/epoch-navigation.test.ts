import { describe, expect, it } from 'vitest';
import {
  epochResultSessionId,
  redoTarget,
  supersededBy,
  undoTarget,
  type EpochLink,
} from '#core/sessions/epoch-navigation.ts';

const inPlace = (id: number, sessionId: string, status: EpochLink['status'] = 'applied'): EpochLink => ({
  id,
  sessionId,
  childSessionId: null,
  mode: 'in-place',
  status,
});
const rotate = (
  id: number,
  sessionId: string,
  childSessionId: string,
  status: EpochLink['status'] = 'applied',
): EpochLink => ({ id, sessionId, childSessionId, mode: 'rotate', status });

describe('undoTarget', () => {
  it('takes the newest applied epoch whose result is the live history', () => {
    const epochs = [inPlace(1, 'A'), rotate(2, 'A', 'B'), inPlace(3, 'B')];
    expect(undoTarget(epochs, 'B')?.id).toBe(3);
    expect(undoTarget([inPlace(1, 'A'), rotate(2, 'A', 'B'), inPlace(3, 'B', 'undone')], 'B')?.id).toBe(2);
    expect(undoTarget([inPlace(1, 'A'), rotate(2, 'A', 'B', 'undone')], 'A')?.id).toBe(1);
  });

  it('finds nothing on a session whose epochs are all undone, or on another session', () => {
    expect(undoTarget([inPlace(1, 'A', 'undone')], 'A')).toBeNull();
    expect(undoTarget([inPlace(1, 'A')], 'B')).toBeNull();
    // A rotation made on A produced B's history, not A's.
    expect(undoTarget([rotate(1, 'A', 'B')], 'A')).toBeNull();
  });
});

describe('redoTarget', () => {
  it('takes the oldest undone epoch made on the live session: the one undone last', () => {
    const epochs = [inPlace(1, 'A', 'undone'), rotate(2, 'A', 'B', 'undone'), inPlace(3, 'B', 'undone')];
    expect(redoTarget(epochs, 'A')?.id).toBe(1);
    expect(
      redoTarget([inPlace(1, 'A'), rotate(2, 'A', 'B', 'undone'), inPlace(3, 'B', 'undone')], 'A')?.id,
    ).toBe(2);
    expect(redoTarget([inPlace(1, 'A'), rotate(2, 'A', 'B'), inPlace(3, 'B', 'undone')], 'B')?.id).toBe(3);
  });

  it('never offers a superseded epoch', () => {
    expect(redoTarget([inPlace(1, 'A', 'superseded'), inPlace(2, 'A')], 'A')).toBeNull();
  });
});

describe('supersededBy', () => {
  it('cuts off the undone epochs reachable from the live session, through the continuations they made', () => {
    const epochs = [
      inPlace(1, 'A'),
      rotate(2, 'A', 'B', 'undone'),
      inPlace(3, 'B', 'undone'),
      inPlace(4, 'C', 'undone'),
    ];
    expect(supersededBy(epochs, 'A').map((epoch) => epoch.id)).toEqual([2, 3]);
    expect(supersededBy(epochs, 'C').map((epoch) => epoch.id)).toEqual([4]);
  });
});

describe('epochResultSessionId', () => {
  it('is the session itself in place and the continuation after a rotation', () => {
    expect(epochResultSessionId(inPlace(1, 'A'))).toBe('A');
    expect(epochResultSessionId(rotate(1, 'A', 'B'))).toBe('B');
  });
});
