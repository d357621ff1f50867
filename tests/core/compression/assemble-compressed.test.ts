import { describe, expect, it } from 'vitest';
import { assembleCompressed } from '#core/compression/assemble-compressed.ts';
import { compressionNote } from '#core/compression/markers.ts';
import type { Message } from '#core/transcript/message.ts';
import { assistant, system, toolCall, toolResult, user } from './message-builders.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const SUMMARY = 'SUMMARY';
const END = '--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---';

describe('assembleCompressed', () => {
  it('appends the compression note to a system head once', () => {
    const messages = [system('sys'), user('a'), assistant('b'), user('c'), assistant('d')];
    const first = assembleCompressed({
      messages,
      headEnd: 1,
      tailStart: 3,
      summary: SUMMARY,
      preset: HERMES_2026_07,
    });
    expect(first.messages[0]!.content).toBe(`sys\n\n${compressionNote(HERMES_2026_07)}`);
    const again = assembleCompressed({
      messages: first.messages,
      headEnd: 1,
      tailStart: 2,
      summary: SUMMARY,
      preset: HERMES_2026_07,
    });
    expect(again.systemNoteAdded).toBe(false);
  });

  it('adds the note as a text part to list content', () => {
    const messages: Message[] = [
      { role: 'system', content: [{ type: 'text', text: 'sys' }] },
      user('a'),
      assistant('b'),
      user('c'),
    ];
    const result = assembleCompressed({
      messages,
      headEnd: 1,
      tailStart: 3,
      summary: SUMMARY,
      preset: HERMES_2026_04,
    });
    expect(result.messages[0]!.content).toEqual([
      { type: 'text', text: 'sys' },
      { type: 'text', text: compressionNote(HERMES_2026_04) },
    ]);
  });

  it('chooses a user summary after an assistant head and ends it with the marker (2026-07)', () => {
    const messages = [user('a'), assistant('b'), user('c'), assistant('d')];
    const result = assembleCompressed({
      messages,
      headEnd: 2,
      tailStart: 3,
      summary: SUMMARY,
      preset: HERMES_2026_07,
    });
    expect(result.summaryRole).toBe('user');
    expect(result.messages[2]).toEqual({
      role: 'user',
      content: `${SUMMARY}\n\n${END}`,
      _compressed_summary: true,
    });
  });

  it('writes a bare standalone summary in 2026-04', () => {
    const messages = [user('a'), assistant('b'), user('c'), assistant('d')];
    const result = assembleCompressed({
      messages,
      headEnd: 2,
      tailStart: 3,
      summary: SUMMARY,
      preset: HERMES_2026_04,
    });
    expect(result.messages[2]).toEqual({ role: 'user', content: SUMMARY });
  });

  it('merges into the first tail message when both roles collide, per generation', () => {
    const messages = [user('a'), assistant('b'), user('mid'), user('tail'), assistant('e')];
    const legacy = assembleCompressed({
      messages,
      headEnd: 2,
      tailStart: 3,
      summary: SUMMARY,
      preset: HERMES_2026_04,
    });
    expect(legacy.mergedIntoTail).toBe(true);
    expect(legacy.messages[2]).toEqual({ role: 'user', content: `${SUMMARY}\n\n${END}\n\ntail` });
    const current = assembleCompressed({
      messages,
      headEnd: 2,
      tailStart: 3,
      summary: SUMMARY,
      preset: HERMES_2026_07,
    });
    expect(current.messages[2]).toEqual({
      role: 'user',
      content: `[PRIOR CONTEXT — for reference only; not a new message]\ntail\n\n[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]\n\n${SUMMARY}\n\n${END}`,
      _compressed_summary: true,
    });
  });

  it('forces a user summary after a system-only head in 2026-07', () => {
    const messages = [system('s'), assistant('x'), user('y'), assistant('z'), assistant('tail')];
    const current = assembleCompressed({
      messages,
      headEnd: 1,
      tailStart: 4,
      summary: SUMMARY,
      preset: HERMES_2026_07,
    });
    expect(current.summaryRole).toBe('user');
    const legacy = assembleCompressed({
      messages,
      headEnd: 1,
      tailStart: 4,
      summary: SUMMARY,
      preset: HERMES_2026_04,
    });
    expect(legacy.summaryRole).toBe('user');
    expect(legacy.mergedIntoTail).toBe(false);
  });

  it('forces a user summary when no user turn survives (2026-07)', () => {
    const messages = [
      user('only ask'),
      assistant('', [toolCall('c')]),
      toolResult('c', 'r'),
      assistant('done'),
    ];
    const result = assembleCompressed({
      messages,
      headEnd: 0,
      tailStart: 3,
      summary: SUMMARY,
      preset: HERMES_2026_07,
    });
    expect(result.summaryRole).toBe('user');
    expect(result.messages[0]!.role).toBe('user');
  });

  it('drops the session-store marker from copies in 2026-07 and never mutates the input', () => {
    const messages: Message[] = [
      { ...user('a'), _db_persisted: true },
      assistant('b'),
      user('c'),
      assistant('d'),
    ];
    const snapshot = structuredClone(messages);
    const result = assembleCompressed({
      messages,
      headEnd: 1,
      tailStart: 3,
      summary: SUMMARY,
      preset: HERMES_2026_07,
    });
    expect(result.messages[0]).toEqual(user('a'));
    expect(messages).toEqual(snapshot);
  });
});
