/**
 * One example of each known bug the strategy invariants property found (`known-strategy-bugs.ts`):
 * the property exempts the case (checked here as passing tests), and the invariant fails on it
 * (`it.fails`). A fix turns the `it.fails` test red: then delete the bug's entry and its tests.
 */
import { describe, expect, it } from 'vitest';
import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { findMissingPinnedMessages } from '#core/fidelity/find-missing-pinned-messages.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import type { Strategy } from '#core/strategies/strategy.ts';
import type { Message, ToolCall } from '#core/transcript/message.ts';
import { PINNED_RESULT_OF_SUMMARISED_CALL, type KnownBug } from './known-strategy-bugs.ts';

/** Plans and compacts as the property does (offline summariser, forced, one pin or none). */
async function planAndCompact(
  strategy: Strategy,
  messages: Message[],
  contextLength: number,
  pin: number | null,
) {
  const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength };
  const planner = createPlanner(messages);
  const plan = planner.plan(strategy, { config, estimator: 'rough' });
  const pinned = new Set(pin === null ? [] : [pin]);
  const outcome = await compactConversation(
    strategy,
    {
      reason: 'manual',
      systemPrompt: '',
      messages,
      tools: [],
      config,
      state: INITIAL_COMPRESSOR_STATE,
      prepared: planner.prepared(strategy),
      force: true,
      pinned,
    },
    { summarizer: createOfflineSummarizer(), now: () => 0 },
  );
  const applies = (bug: KnownBug) =>
    bug.applies({
      messages,
      pin: pin ?? -1,
      fates: outcome.fates,
    });
  return { plan, outcome, pinned, applies };
}

const call = (id: string): ToolCall => ({
  id,
  type: 'function',
  function: { name: 'terminal', arguments: '{"command":"pytest tests/test_0.py -k case_0"}' },
});

describe('known bug: Hermes 2026-04 loses a pinned result of a summarised call', () => {
  const output = (id: string): Message => ({
    role: 'tool',
    tool_call_id: id,
    content: `${'invoice ledger parser cache migration schema retry token billing '.repeat(30)}${id}`,
  });
  const round = (ids: readonly string[]): Message => ({
    role: 'assistant',
    content: 'Checking.',
    tool_calls: ids.map(call),
  });
  const messages: Message[] = [
    { role: 'user', content: 'Turn 0: please fix the invoice bug.' },
    round(['c0', 'c1', 'c2']),
    output('c0'),
    output('c1'),
    output('c2'),
    round(['c3', 'c4', 'c5']),
    output('c3'),
    output('c4'),
    output('c5'),
    { role: 'assistant', content: "I'll use the invoice fix." },
    { role: 'user', content: 'Turn 1: please fix the invoice bug.' },
    { role: 'assistant', content: "I'll use the invoice fix." },
  ];
  const run = () => planAndCompact(PINNED_RESULT_OF_SUMMARISED_CALL.strategy, messages, 16_000, 6);

  it('is a case the property exempts', async () => {
    expect((await run()).applies(PINNED_RESULT_OF_SUMMARISED_CALL)).toBe(true);
  });

  it.fails('keeps the pinned result', async () => {
    const { outcome, pinned } = await run();
    expect(findMissingPinnedMessages(messages, pinned, outcome.messages)).toEqual([]);
  });
});
