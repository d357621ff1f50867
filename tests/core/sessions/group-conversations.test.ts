import { describe, expect, it } from 'vitest';
import { groupConversations } from '#core/sessions/group-conversations.ts';
import type { SessionRecord } from '#core/sessions/session-record.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const session = (id: string, overrides: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  parentSessionId: null,
  startedAt: 0,
  endedAt: null,
  endReason: null,
  title: null,
  source: 'chat',
  modelConfig: null,
  lastMessageAt: null,
  messageCount: 1,
  ...overrides,
});

const compressed = { endedAt: 10, endReason: 'compression' } as const;

describe('groupConversations', () => {
  it('puts a continuation chain in one conversation, root to tip', () => {
    const groups = groupConversations(
      [
        session('tip', { parentSessionId: 'middle', startedAt: 30 }),
        session('root', { startedAt: 10, ...compressed }),
        session('middle', { parentSessionId: 'root', startedAt: 20, ...compressed, endedAt: 25 }),
      ],
      HERMES_2026_07,
    );
    expect(groups).toEqual([
      { rootId: 'root', tipId: 'tip', chainIds: ['root', 'middle', 'tip'], sideIds: [], lastActivity: 30 },
    ]);
  });

  it('keeps a continuation whose compaction was undone in its parent’s conversation, off the chain', () => {
    const undone = { _branched_from: 'root', _compaction_undone: 1 };
    const groups = groupConversations(
      [
        // The parent is live again: undo cleared its end.
        session('root', { startedAt: 10, lastMessageAt: 40 }),
        session('branch', { parentSessionId: 'root', startedAt: 30, modelConfig: undone }),
        session('other', { startedAt: 5 }),
      ],
      HERMES_2026_07,
    );
    expect(groups).toEqual([
      { rootId: 'root', tipId: 'root', chainIds: ['root'], sideIds: ['branch'], lastActivity: 40 },
      { rootId: 'other', tipId: 'other', chainIds: ['other'], sideIds: [], lastActivity: 5 },
    ]);
    // Its parent deleted, it is a conversation of its own.
    expect(
      groupConversations(
        [session('branch', { parentSessionId: 'gone', modelConfig: undone })],
        HERMES_2026_07,
      ),
    ).toEqual([{ rootId: 'branch', tipId: 'branch', chainIds: ['branch'], sideIds: [], lastActivity: 0 }]);
  });

  it('keeps unrelated sessions apart, newest activity first', () => {
    const groups = groupConversations(
      [
        session('old', { startedAt: 1, lastMessageAt: 5 }),
        session('new', { startedAt: 2, lastMessageAt: 50 }),
      ],
      HERMES_2026_07,
    );
    expect(groups.map((group) => group.rootId)).toEqual(['new', 'old']);
  });

  it('starts a new conversation for a branch, a delegate, or a parent that did not end by compression', () => {
    const groups = groupConversations(
      [
        session('root', { ...compressed }),
        session('branch', { parentSessionId: 'root', modelConfig: { _branched_from: 'root' } }),
        session('tool', { parentSessionId: 'root', source: 'tool' }),
        session('live', { startedAt: 1 }),
        session('child-of-live', { parentSessionId: 'live', startedAt: 2 }),
      ],
      HERMES_2026_07,
    );
    expect(groups.map((group) => group.chainIds).sort()).toEqual([
      ['branch'],
      ['child-of-live'],
      ['live'],
      ['root'],
      ['tool'],
    ]);
  });

  it('makes an orphaned child (its parent deleted) the root of its own chain', () => {
    const groups = groupConversations([session('child', { parentSessionId: 'gone' })], HERMES_2026_07);
    expect(groups[0]).toMatchObject({ rootId: 'child', chainIds: ['child'] });
  });

  it('lists a stale sibling continuation beside the chain instead of on it', () => {
    const groups = groupConversations(
      [
        session('root', { ...compressed }),
        session('stale', { parentSessionId: 'root', startedAt: 11, endedAt: 12, endReason: 'user_exit' }),
        session('tip', { parentSessionId: 'root', startedAt: 13, lastMessageAt: 40 }),
      ],
      HERMES_2026_07,
    );
    expect(groups).toEqual([
      { rootId: 'root', tipId: 'tip', chainIds: ['root', 'tip'], sideIds: ['stale'], lastActivity: 40 },
    ]);
  });

  it('survives a parent cycle', () => {
    const groups = groupConversations(
      [
        session('a', { parentSessionId: 'b', ...compressed }),
        session('b', { parentSessionId: 'a', ...compressed }),
      ],
      HERMES_2026_07,
    );
    expect(groups.flatMap((group) => [...group.chainIds, ...group.sideIds]).sort()).toEqual(['a', 'b']);
  });
});
