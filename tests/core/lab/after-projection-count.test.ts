/**
 * The after lane says how many messages a compaction leaves; the replay shows the count the
 * compaction left. They must agree, also when Hermes merges the summary into the first tail
 * message (neither role fits between head and tail) and when that message is pinned (kept
 * whole, the summary then stands before it).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import { HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY } from '#core/strategies/hermes.ts';
import type { Message } from '#core/transcript/message.ts';
import { compactAsPlanned } from '../../helpers/compact-as-planned.ts';

const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 200_000 };

/** A plain chat, user and assistant in turn, with turns of uneven length (seeded, no tools). */
function chat(count: number): Message[] {
  let seed = count * 7919;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `Turn ${index}: ${'the ledger job and its nightly run '.repeat(20 + Math.floor(next() * 140))}`,
  }));
}

describe('the after lane counts the messages the compaction leaves', () => {
  it('with the summary standing alone, merged into the first tail message, or standing before a pinned one', async () => {
    let merged = 0;
    let standing = 0;
    for (const strategy of [HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY]) {
      for (let count = 30; count < 46; count++) {
        const messages = chat(count);
        const planner = createPlanner(messages, { tools: [] });
        const unpinned = planner.plan(strategy, { config, estimator: 'rough' });
        if (unpinned.summaries.length === 0) continue;
        for (const pinned of [[], [unpinned.tailStart]]) {
          const plan = planner.plan(strategy, { config, estimator: 'rough', pinned });
          const outcome = await compactAsPlanned(strategy, planner, plan, { messages, config, pinned });
          if (outcome.skipped !== null) continue;
          const label = `${strategy.name}, ${count} messages, pinned [${pinned.join()}]`;
          expect(plan.after.messages, label).toBe(outcome.messages.length);
          if (plan.summaries[0]?.mergedIntoTail) merged++;
          else standing++;
        }
      }
    }
    // Both cases occurred: the assertion above is not vacuous.
    expect(merged).toBeGreaterThan(0);
    expect(standing).toBeGreaterThan(0);
  });
});
