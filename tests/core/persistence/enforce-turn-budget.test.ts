import { describe, expect, it } from 'vitest';
import type { BudgetConfig } from '#core/persistence/budget-config.ts';
import { PERSISTED_OUTPUT_TAG } from '#core/persistence/build-persisted-message.ts';
import { enforceTurnBudget } from '#core/persistence/enforce-turn-budget.ts';
import type { ToolResultStorage } from '#core/persistence/tool-result-storage.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const config: BudgetConfig = { defaultResultSize: 10_000, turnBudget: 1000, previewSize: 50 };
const storage: ToolResultStorage = { location: '/store', write: () => true };
const tool = (id: string, size: number): Message => ({
  role: 'tool',
  tool_call_id: id,
  content: id.repeat(size),
});

describe('enforceTurnBudget', () => {
  it('leaves a turn within budget untouched', () => {
    const messages = [tool('a', 400), tool('b', 400)];
    expect(enforceTurnBudget(messages, storage, config, HERMES_2026_07)).toEqual(messages);
  });

  it('persists the largest results first until the turn fits', () => {
    const result = enforceTurnBudget(
      [tool('a', 300), tool('b', 900), tool('c', 300)],
      storage,
      config,
      HERMES_2026_07,
    );
    const persisted = result.map((message) => messageText(message).includes(PERSISTED_OUTPUT_TAG));
    expect(persisted).toEqual([false, true, false]);
  });

  it('names the file after the id as stored: a missing id is budget_<index>, a null one stays null', () => {
    const names = (preset: typeof HERMES_2026_07): string[] => {
      const written: string[] = [];
      const recording: ToolResultStorage = {
        location: '/store',
        write: (name) => (written.push(name), true),
      };
      const missing: Message = { role: 'tool', content: 'm'.repeat(900) };
      const none = { role: 'tool', tool_call_id: null, content: 'n'.repeat(800) } as unknown as Message;
      enforceTurnBudget([missing, none], recording, { ...config, turnBudget: 100 }, preset);
      return written;
    };
    expect(names(HERMES_2026_07)).toEqual(['budget_0.txt', 'tool_result.txt']);
    expect(names(HERMES_2026_04)).toEqual(['budget_0.txt', 'None.txt']);
  });

  it('skips results that are already persisted', () => {
    const already: Message = {
      role: 'tool',
      tool_call_id: 'p',
      content: `${PERSISTED_OUTPUT_TAG}\n${'x'.repeat(1500)}`,
    };
    const result = enforceTurnBudget([already, tool('a', 200)], storage, config, HERMES_2026_04);
    expect(result[0]).toEqual(already);
    expect(messageText(result[1]!).startsWith(PERSISTED_OUTPUT_TAG)).toBe(true);
  });

  it('does not mutate the messages it was given', () => {
    const messages = [tool('a', 2000)];
    enforceTurnBudget(messages, storage, config, HERMES_2026_07);
    expect(messages[0]!.content).toBe('a'.repeat(2000));
  });
});
