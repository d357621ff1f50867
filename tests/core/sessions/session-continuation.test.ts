import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/session_continuation.ts';
import { getCompressionTip } from '#core/sessions/get-compression-tip.ts';
import { resolveResumeSessionId } from '#core/sessions/resolve-resume-session-id.ts';
import { sessionLineageRootToTip } from '#core/sessions/session-lineage-root-to-tip.ts';
import type { SessionRecord } from '#core/sessions/session-record.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const session = (id: string, overrides: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  parentSessionId: null,
  startedAt: 0,
  endedAt: null,
  endReason: null,
  title: null,
  source: 'cli',
  modelConfig: null,
  lastMessageAt: null,
  messageCount: 0,
  ...overrides,
});

describe('getCompressionTip', () => {
  it.each(hermesVectorRuns('session_continuation.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('skips a delegate child in 2026-07 but follows it in 2026-04', () => {
    const sessions = [
      session('A', { startedAt: 100, endedAt: 200, endReason: 'compression' }),
      session('C', { parentSessionId: 'A', startedAt: 201, messageCount: 1, lastMessageAt: 205 }),
      session('D', { parentSessionId: 'A', startedAt: 300, modelConfig: { _delegate_from: 'A' } }),
    ];
    expect(getCompressionTip(sessions, 'A', HERMES_2026_07)).toBe('C');
    expect(getCompressionTip(sessions, 'A', HERMES_2026_04)).toBe('D');
  });

  it('stops on a cycle instead of looping', () => {
    const sessions = [
      session('A', { parentSessionId: 'B', endedAt: 1, endReason: 'compression' }),
      session('B', { parentSessionId: 'A', endedAt: 1, endReason: 'compression' }),
    ];
    expect(['A', 'B']).toContain(getCompressionTip(sessions, 'A', HERMES_2026_07));
  });

  it('returns an unknown id unchanged', () => {
    expect(getCompressionTip([], 'missing', HERMES_2026_07)).toBe('missing');
  });
});

describe('resolveResumeSessionId', () => {
  it('stays on a session that has messages when nothing was compressed', () => {
    const sessions = [
      session('conv', { messageCount: 2, lastMessageAt: 5 }),
      session('sub', { parentSessionId: 'conv', startedAt: 10, messageCount: 1 }),
    ];
    expect(resolveResumeSessionId(sessions, 'conv', HERMES_2026_07)).toBe('conv');
  });

  it('returns the id itself when no descendant has messages', () => {
    const sessions = [session('root'), session('child', { parentSessionId: 'root', startedAt: 1 })];
    expect(resolveResumeSessionId(sessions, 'root', HERMES_2026_04)).toBe('root');
  });

  it('passes an empty id through', () => {
    expect(resolveResumeSessionId([], '', HERMES_2026_07)).toBe('');
  });
});

describe('sessionLineageRootToTip', () => {
  it('lists the ancestry root first', () => {
    const sessions = [
      session('A'),
      session('B', { parentSessionId: 'A' }),
      session('C', { parentSessionId: 'B' }),
    ];
    expect(sessionLineageRootToTip(sessions, 'C')).toEqual(['A', 'B', 'C']);
  });

  it('stops at a missing parent or a cycle', () => {
    expect(sessionLineageRootToTip([session('B', { parentSessionId: 'gone' })], 'B')).toEqual(['B']);
    const cyclic = [session('A', { parentSessionId: 'B' }), session('B', { parentSessionId: 'A' })];
    expect(sessionLineageRootToTip(cyclic, 'A')).toEqual(['B', 'A']);
  });
});
