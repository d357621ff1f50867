import { describe, expect, it } from 'vitest';
import { CODEX_CLI_STRATEGY, CODEX_SUMMARY_PREFIX } from '#core/strategies/codex-cli.ts';
import { FATE } from '#core/strategies/strategy.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import {
  assistant,
  calls,
  configWith,
  fixedTokens,
  initialState,
  recordingSummarizer,
  result,
  system,
  user,
} from '#tests/helpers/strategy-fixtures.ts';

const strategy = CODEX_CLI_STRATEGY;

/**
 * Codex counts kept user messages at four bytes per token (ASCII here: four characters).
 * #1 asks 100 tokens, #5 10,000, #8 12,000; the rest is replies and a tool round.
 */
const ask = (label: string, tokens: number): Message =>
  user(`${label} ${'x'.repeat(tokens * 4 - label.length - 1)}`);
const messages: Message[] = [
  system('You are Codex.'),
  ask('first', 100),
  calls([['call-1', 'shell', { command: 'ls' }]]),
  result('call-1', 'src tests'),
  assistant('Listed the files.'),
  ask('second', 10_000),
  assistant('Working on it.'),
  assistant('Done with the second.'),
  ask('third', 12_000),
  assistant('On the third.'),
];

describe('codex-cli', () => {
  it('fires at 90% of the raw window, or at the share the option sets', () => {
    expect(strategy.trigger(configWith(200_000)).thresholdTokens).toBe(180_000);
    expect(strategy.trigger(configWith(64_000)).thresholdTokens).toBe(57_600);
    expect(strategy.trigger(configWith(200_000, { 'codex.triggerPercent': 50 })).thresholdTokens).toBe(
      100_000,
    );
  });

  it('plans to keep the system prompt and the newest 20,000 tokens of user messages, cutting the oldest that does not fit', () => {
    const plan = strategy.plan({
      messages,
      tools: [],
      config: configWith(200_000),
      state: initialState,
      tokens: fixedTokens(
        messages.map(() => 100),
        190_000,
      ),
      prepared: strategy.prepare(messages, [], {
        sizeCache: () => new WeakMap(),
        summaryTextCache: () => new WeakMap(),
      }),
      nowMs: 0,
    });
    expect(plan.wouldCompress).toBe(true);
    // Newest first: #8 (12,000) fits, leaving 8,000; #5 (10,000) does not and is cut; #1 is not reached.
    expect(Array.from(plan.fates)).toEqual([
      FATE.kept,
      FATE.summarized,
      FATE.summarized,
      FATE.summarized,
      FATE.summarized,
      FATE.pruned,
      FATE.summarized,
      FATE.summarized,
      FATE.kept,
      FATE.summarized,
    ]);
    expect(plan.summaries).toEqual([{ start: 1, end: 10, kind: 'middle' }]);
  });

  it('compacts into the system prompt, the kept user messages and a handoff summary behind its note', async () => {
    const { summarizer, requests } = recordingSummarizer('## Goal\nFinish the third task.');
    const compaction = await strategy.compact(
      { messages, tools: [], config: configWith(200_000), state: initialState, force: true },
      { summarizer, now: () => 0 },
    );
    expect(compaction.skipped).toBeNull();
    expect(requests).toHaveLength(1);
    expect(compaction.messages).toHaveLength(4);
    expect(compaction.messages[0]).toBe(messages[0]);
    // #5 cut to the 8,000 tokens left: its first and last 16,000 characters around a marker.
    const cut = messageText(compaction.messages[1]!);
    const whole = messageText(messages[5]!);
    expect(cut).toBe(`${whole.slice(0, 16_000)}\n…2,000 tokens truncated…\n${whole.slice(-16_000)}`);
    expect(compaction.messages[2]).toBe(messages[8]);
    const summary = compaction.messages[3]!;
    expect(summary.role).toBe('user');
    expect(messageText(summary)).toBe(`${CODEX_SUMMARY_PREFIX}\n\n## Goal\nFinish the third task.`);
    expect(compaction.state.compressionCount).toBe(1);
    expect(compaction.notes[0]).toBe(
      'Kept the system prompt and 2 earlier user messages; the summary stands for the other 7 messages.',
    );
  });

  it('keeps whole user messages when they fit a larger budget', async () => {
    const { summarizer } = recordingSummarizer('summary');
    const compaction = await strategy.compact(
      {
        messages,
        tools: [],
        config: configWith(200_000, { 'codex.userMessageTokens': 30_000 }),
        state: initialState,
        force: true,
      },
      { summarizer, now: () => 0 },
    );
    // 12,000 + 10,000 + 100 = 22,100 ≤ 30,000: all three asks, whole and in order.
    expect(compaction.messages.slice(1, 4)).toEqual([messages[1], messages[5], messages[8]]);
  });

  it('trims the oldest messages, never a tool result from its call, until the request fits the window, as Codex retries', async () => {
    // Ten messages of 1,000 tokens each. The request is theirs and the prompt's own text (a few
    // hundred tokens). A window of 8,500 holds eight messages with that, not nine: #1 and #2 go,
    // and so does #3, the result of #2's call.
    const { summarizer, requests } = recordingSummarizer('summary');
    const tokens = fixedTokens(
      messages.map(() => 1000),
      10_000,
    );
    const input = { messages, tools: [], config: configWith(8500), state: initialState, force: true, tokens };
    const plan = strategy.plan({ ...input, prepared: undefined, nowMs: 0 });
    const compaction = await strategy.compact(input, { summarizer, now: () => 0 });
    expect(Array.from(compaction.fates)).toEqual([
      FATE.kept,
      FATE.dropped,
      FATE.dropped,
      FATE.dropped,
      FATE.summarized,
      FATE.pruned,
      FATE.summarized,
      FATE.summarized,
      FATE.kept,
      FATE.summarized,
    ]);
    expect(Array.from(plan.fates)).toEqual(Array.from(compaction.fates));
    expect(plan.summaries).toEqual([{ start: 4, end: 10, kind: 'middle' }]);
    expect(compaction.summaries[0]!.span).toEqual({ start: 4, end: 10, kind: 'middle' });
    const prompt = requests[0]!.prompt;
    expect(prompt).not.toContain('first x');
    expect(prompt).not.toContain('[TOOL RESULT call-1]');
    expect(prompt).toContain('[ASSISTANT]: Listed the files.');
    expect(compaction.notes).toEqual([
      'Kept the system prompt and 2 earlier user messages; the summary stands for the other 4 messages.',
      "The whole history does not fit the 8,500-token window with Codex's compaction prompt, so Codex trims the " +
        'oldest 3 messages (3,000 tokens) before it compacts: they are dropped without being summarised.',
    ]);

    // A window that holds it all trims nothing.
    const whole = await strategy.compact(
      { ...input, config: configWith(11_000) },
      { summarizer, now: () => 0 },
    );
    expect(whole.fates.includes(FATE.dropped)).toBe(false);
  });
});
