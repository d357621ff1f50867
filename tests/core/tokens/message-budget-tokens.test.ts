import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/token_estimates.ts';
import { messageBudgetTokens, pruneWalkTokens } from '#core/tokens/message-budget-tokens.ts';
import type { Message } from '#core/transcript/message.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const multimodal: Message = {
  role: 'user',
  content: [
    { type: 'text', text: 'x'.repeat(40) },
    { type: 'image_url', image_url: { url: 'data:' } },
  ],
};

describe('messageBudgetTokens', () => {
  it.each(
    hermesVectorRuns('token_estimates.json').filter((run) =>
      String(run.testCase.function).startsWith('_estimate_msg_budget_tokens'),
    ),
  )('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('floors content length over four and adds ten', () => {
    expect(messageBudgetTokens({ role: 'user', content: 'x'.repeat(403) }, HERMES_2026_07)).toBe(110);
    expect(messageBudgetTokens({ role: 'user', content: 'x'.repeat(403) }, HERMES_2026_04)).toBe(110);
  });

  it('counts a list by its number of parts in 2026-04 and images at 6400 chars in 2026-07', () => {
    expect(messageBudgetTokens(multimodal, HERMES_2026_04)).toBe(10);
    expect(messageBudgetTokens(multimodal, HERMES_2026_07)).toBe(10 + 10 + 1600);
  });

  it('counts only argument strings in 2026-04 but the whole call envelope in 2026-07', () => {
    const call: Message = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a": 1}' } }],
    };
    expect(messageBudgetTokens(call, HERMES_2026_04)).toBe(10 + 2);
    expect(messageBudgetTokens(call, HERMES_2026_07)).toBe(
      10 +
        Math.floor(
          "{'id': 'c', 'type': 'function', 'function': {'name': 'f', 'arguments': '{\"a\": 1}'}}".length / 4,
        ),
    );
  });
});

describe('pruneWalkTokens', () => {
  it('sums text-part lengths of a list in 2026-04', () => {
    expect(pruneWalkTokens(multimodal, HERMES_2026_04)).toBe(20);
  });

  it('is the tail weight in 2026-07', () => {
    expect(pruneWalkTokens(multimodal, HERMES_2026_07)).toBe(messageBudgetTokens(multimodal, HERMES_2026_07));
  });
});
