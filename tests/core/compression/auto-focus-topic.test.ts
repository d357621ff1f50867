import { describe, expect, it } from 'vitest';
import { deriveAutoFocusTopic } from '#core/compression/auto-focus-topic.ts';
import { SUMMARY_PREFIX_2026_07 } from '#core/compression/markers.ts';
import { assistant, user } from './message-builders.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('deriveAutoFocusTopic', () => {
  it('lists the three latest user messages oldest first, whitespace collapsed', () => {
    const messages = [user('one'), user('two'), assistant('x'), user('three\n\n  please'), user('four')];
    expect(deriveAutoFocusTopic(messages, HERMES_2026_07)).toBe(
      'Recent user focus:\n- two\n- three please\n- four',
    );
  });

  it('skips summaries and empty messages', () => {
    const messages = [user('real'), user(`${SUMMARY_PREFIX_2026_07}\nbody`), user('   ')];
    expect(deriveAutoFocusTopic(messages, HERMES_2026_07)).toBe('Recent user focus:\n- real');
  });

  it('cuts each turn to 259 characters plus an ellipsis and the whole to 699 plus one', () => {
    const focus = deriveAutoFocusTopic(
      [user('a'.repeat(300)), user('b'.repeat(300)), user('c'.repeat(300))],
      HERMES_2026_07,
    )!;
    expect(focus).toContain(`- ${'a'.repeat(259)}…\n`);
    expect(focus.length).toBe(700);
    expect(focus.endsWith('…')).toBe(true);
  });

  it('is null without user messages', () => {
    expect(deriveAutoFocusTopic([assistant('x')], HERMES_2026_07)).toBeNull();
  });
});
