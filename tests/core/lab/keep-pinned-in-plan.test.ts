import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { findMissingPinnedMessages } from '#core/fidelity/find-missing-pinned-messages.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import { describePinnedMessages } from '#core/lab/describe-pinned-messages.ts';
import { keepPinnedInPlan } from '#core/lab/keep-pinned-in-plan.ts';
import { offsetOfMessage, buildTokenAxis } from '#core/lab/token-axis.ts';
import { HERMES_2026_04_STRATEGY } from '#core/strategies/hermes.ts';
import { FATE } from '#core/strategies/strategy.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import type { Message } from '#core/transcript/message.ts';
import { compactAsPlanned } from '../../helpers/compact-as-planned.ts';

const call = (id: string, ...more: string[]): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: [id, ...more].map((callId) => ({
    id: callId,
    type: 'function' as const,
    function: { name: 'read_file', arguments: '{}' },
  })),
});
const result = (id: string): Message => ({ role: 'tool', tool_call_id: id, content: `output of ${id}` });

const messages: Message[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'fix the bug' },
  call('c1', 'c2'),
  result('c1'),
  result('c2'),
  { role: 'assistant', content: 'found it' },
  { role: 'user', content: 'go on' },
  result('orphan'),
];
const { kept, pruned, summarized, dropped } = FATE;

describe('keepPinnedInPlan', () => {
  const plan = {
    fates: Uint8Array.from([kept, kept, summarized, summarized, summarized, dropped, kept, pruned]),
    prunedSavings: new Map([
      [3, 20],
      [7, 50],
    ]),
    pruned: [
      {
        index: 3,
        kind: 'one-liner' as const,
        toolName: 'read_file',
        originalChars: 900,
        replacement: 'read',
      },
      {
        index: 7,
        kind: 'one-liner' as const,
        toolName: 'read_file',
        originalChars: 800,
        replacement: 'read',
      },
    ],
  };

  it('keeps what the compaction will put back: a summarised pin with its tool group, a dropped one, a shortened one whole', () => {
    const pinned = keepPinnedInPlan(plan, messages, [4, 5, 6, 7]);
    // #4 is a result of the call at #2: the call and both its results come back together.
    expect([...pinned.fates]).toEqual([kept, kept, kept, kept, kept, kept, kept, kept]);
    expect(pinned.pins).toEqual([
      { index: 4, rescued: 'summarized' },
      { index: 5, rescued: 'dropped' },
      { index: 6, rescued: null },
      { index: 7, rescued: 'shortened' },
    ]);
    // Whatever is kept whole gives nothing back to pruning, and is no longer listed as pruned.
    expect([...pinned.prunedSavings]).toEqual([]);
    expect(pinned.pruned).toEqual([]);
    // The strategy's own plan is untouched.
    expect([...plan.fates]).toEqual([kept, kept, summarized, summarized, summarized, dropped, kept, pruned]);
  });

  it('ignores the system prompt, indices outside the transcript and repeats, and changes nothing without pins', () => {
    const pinned = keepPinnedInPlan(plan, messages, [0, -1, 8, 2.5, 5, 5]);
    expect(pinned.pins).toEqual([{ index: 5, rescued: 'dropped' }]);
    expect([...pinned.fates]).toEqual([kept, kept, summarized, summarized, summarized, kept, kept, pruned]);
    expect([...pinned.prunedSavings]).toEqual([...plan.prunedSavings]);
    const none = keepPinnedInPlan(plan, messages, []);
    expect(none.fates).toBe(plan.fates);
    expect(none.pins).toEqual([]);
  });
});

describe('the planner with pins', () => {
  const demo = buildDemoTranscript();
  const tools = demo.metadata.tools ?? [];
  const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 };

  it('draws a pinned message of the summarised middle as kept, on the map and in the after lane', () => {
    const planner = createPlanner(demo.messages, { tools });
    const plain = planner.plan(HERMES_2026_04_STRATEGY, { config, estimator: 'rough' });
    // #23 is an assistant answer (no calls) inside Hermes' middle at this window.
    expect(demo.messages[23]!.role).toBe('assistant');
    expect(demo.messages[23]!.tool_calls).toBeUndefined();
    expect(plain.fates[23]).toBe(summarized);
    expect(plain.pins).toBeUndefined();

    const pinnedPlan = planner.plan(HERMES_2026_04_STRATEGY, { config, estimator: 'rough', pinned: [23] });
    const tokens = plain.tokensPerMessage[23]!;
    const axis = buildTokenAxis(plain.tokensPerMessage, 1, plain.toolsTokens);
    expect(pinnedPlan.pins).toEqual([
      { index: 23, rescued: 'summarized', offset: offsetOfMessage(axis, 23), tokens },
    ]);
    expect(pinnedPlan.fates[23]).toBe(kept);
    expect(pinnedPlan.fateTotals.kept.messages).toBe(plain.fateTotals.kept.messages + 1);
    expect(pinnedPlan.fateTotals.summarized.tokens).toBe(plain.fateTotals.summarized.tokens - tokens);
    // The after lane carries the pinned message whole, beside the same summary budget.
    expect(pinnedPlan.after.tokens).toBe(plain.after.tokens + tokens);
    expect(pinnedPlan.after.summaryTokens).toBe(plain.after.summaryTokens);
    expect(describePinnedMessages(pinnedPlan.pins!)).toEqual([
      '1 pinned message kept verbatim.',
      'Pinned message #23 kept verbatim: this strategy would have summarised it.',
    ]);
  });

  it.each(STRATEGIES.map((strategy) => [strategy.name, strategy] as const))(
    '%s: the plan keeps the pins the compaction keeps, and says what the compaction says about them',
    async (_name, strategy) => {
      // A tool result inside the group #4–#12 and an assistant answer, both in the middle of most strategies.
      const pinned = [7, 23];
      const planner = createPlanner(demo.messages, { tools });
      const plan = planner.plan(strategy, { config, estimator: 'rough', pinned });
      const outcome = await compactAsPlanned(strategy, planner, plan, {
        messages: demo.messages,
        tools,
        config,
        pinned,
      });
      for (const index of pinned) expect(plan.fates[index]).toBe(kept);
      if (outcome.skipped !== null) return;
      expect(findMissingPinnedMessages(outcome.input, pinned, outcome.messages)).toEqual([]);
      // The pins and the rest of their tool groups fare alike in the plan and the compaction
      // (a group comes back whole when its pin was summarised; a shortened neighbour stays shortened).
      for (const index of [4, 5, 6, 7, 8, 9, 10, 11, 12, 23])
        expect(plan.fates[index]).toBe(outcome.fates[index]);
      // Every pin the plan says the strategy would have summarised or dropped, the compaction says so too.
      const [, ...rescues] = describePinnedMessages(plan.pins!);
      for (const line of rescues) expect(outcome.notes).toContain(line);
    },
  );
});
