import { describe, expect, it } from 'vitest';
import { contentTextForContains } from '#core/compression/content-text.ts';
import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import { SUMMARY_PREFIX_2026_07 } from '#core/compression/markers.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { HERMES_2026_07_STRATEGY } from '#core/strategies/hermes.ts';
import type { Message } from '#core/transcript/message.ts';
import { calls, configWith, result, user } from '#tests/helpers/strategy-fixtures.ts';

describe('Hermes compaction summaries', () => {
  it('say where the new summary went in a resumed session, not where the earlier one stands', async () => {
    // #0 is an earlier compaction's summary and stays in the head (#0–#2), which ends on a user
    // turn; the tail (#6–#7) starts with an assistant call, so no role fits a summary between
    // them and 2026-07 merges the new summary of #3–#5 into #6: output position 3.
    const messages: Message[] = [
      user(`${SUMMARY_PREFIX_2026_07} Earlier we migrated the billing schema; tests pass.`),
      user('Turn 0: please fix the invoice bug in src/module_0.py and run the tests.'),
      user('Turn 1: please fix the invoice bug in src/module_0.py and run the tests.'),
      user('Turn 2: please fix the invoice bug in src/module_0.py and run the tests.'),
      calls([['call_0', 'terminal', { command: 'pytest tests/test_0.py' }]], ''),
      result('call_0', 'FAILED tests/test_invoice.py::test_total - AssertionError\n'.repeat(60)),
      calls([['call_1', 'terminal', { command: 'pytest tests/test_0.py' }]]),
      result('call_1', 'passed'),
    ];
    const compaction = await HERMES_2026_07_STRATEGY.compact(
      { messages, tools: [], config: configWith(16_000), state: INITIAL_COMPRESSOR_STATE, force: true },
      { summarizer: createOfflineSummarizer(), now: () => 0 },
    );
    expect(compaction.skipped).toBeNull();
    expect(compaction.hermes?.mergedIntoTail).toBe(true);
    const [summary] = compaction.summaries;
    expect(summary!.outputIndex).toBe(3);
    const carrier = compaction.messages[3]!;
    expect(carrier.tool_calls?.[0]?.id).toBe('call_1');
    expect(contentTextForContains(carrier.content)).toContain(summary!.body);
  });
});
