import { describe, expect, it } from 'vitest';
import { groundHistoricalTaskSnapshot, latestUserAsk } from '#core/compression/ground-task-snapshot.ts';
import type { Message } from '#core/transcript/message.ts';
import { assistant, user } from './message-builders.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('latestUserAsk', () => {
  it('skips synthetic and scaffolding user turns', () => {
    const turns: Message[] = [
      user('the real ask'),
      { role: 'user', content: 'todo', _todo_snapshot_synthetic: true },
      user('[System: Your previous response was truncated, continue]'),
    ];
    expect(latestUserAsk(turns, HERMES_2026_07)).toBe('the real ask');
  });

  it('cuts asks over 1400 characters to 1385 plus a marker', () => {
    expect(latestUserAsk([user('x'.repeat(1500))], HERMES_2026_07)).toBe(
      `${'x'.repeat(1385)} ...[truncated]`,
    );
  });
});

describe('groundHistoricalTaskSnapshot', () => {
  it("quotes the ask with Python repr rules (double quotes when it contains ')", () => {
    const grounded = groundHistoricalTaskSnapshot('## Goal\ng', [user("don't stop")], HERMES_2026_07);
    expect(grounded).toContain(`User asked (deterministic, from compacted turns): "don't stop"`);
  });

  it('leaves the summary alone when no user spoke', () => {
    expect(groundHistoricalTaskSnapshot('## Goal\ng', [assistant('x')], HERMES_2026_07)).toBe('## Goal\ng');
  });
});
