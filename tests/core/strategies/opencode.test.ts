import { describe, expect, it } from 'vitest';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { isRealUserMessage } from '#core/compression/real-user-message.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import {
  OPENCODE_CLEARED_OUTPUT,
  OPENCODE_CONTINUE,
  OPENCODE_STRATEGY,
  OPENCODE_SUMMARY_REQUEST,
} from '#core/strategies/opencode.ts';
import { FATE, type MessageTokens } from '#core/strategies/strategy.ts';
import { HOST_PRESET, isUserAsk, roughMessageTokens, summaryMessage } from '#core/strategies/strategy-kit.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import {
  assistant,
  calls,
  configWith,
  fixedTokens,
  forbiddenSummarizer,
  initialState,
  normalizedText,
  recordingSummarizer,
  result,
  system,
  toolPairProblems,
  user,
} from '#tests/helpers/strategy-fixtures.ts';

const strategy = OPENCODE_STRATEGY;
const deps = { summarizer: createOfflineSummarizer(), now: () => 0 };
/** #3's output: 120,000 characters counted as 30,000 tokens. */
const BIG_OUTPUT_CHARS = 120_000;

/**
 * Three user turns (#1, #10, #14), tool output sizes in tokens beside each message:
 * #3 terminal 30,000 · #5 read_file 20,000 · #7 skill 5,000 · #9 terminal 15,000 ·
 * #12 terminal 10,000 · #16 terminal 7,000; every other message 50, the system prompt 100.
 */
function session(extra: Message[] = []): { messages: Message[]; tokens: MessageTokens } {
  const messages: Message[] = [
    system('You are a coding agent.'),
    user('Set up the project'),
    calls([['t1', 'terminal', { command: 'npm install' }]]),
    result('t1', 'x'.repeat(BIG_OUTPUT_CHARS)),
    calls([['t2', 'read_file', { path: 'src/app.ts' }]]),
    result('t2', 'r'.repeat(80_000)),
    calls([['t3', 'skill', { name: 'testing' }]]),
    result('t3', 's'.repeat(20_000)),
    calls([['t4', 'terminal', { command: 'npm run build' }]]),
    result('t4', 'b'.repeat(60_000)),
    user('Now add tests'),
    calls([['t5', 'terminal', { command: 'npm test' }]]),
    result('t5', 't'.repeat(40_000)),
    assistant('Done: the tests are in.'),
    user('Run them again'),
    calls([['t6', 'terminal', { command: 'npm test' }]]),
    result('t6', 'u'.repeat(28_000)),
    assistant('All pass.'),
    ...extra,
  ];
  const sizes: Record<number, number> = {
    0: 100,
    3: 30_000,
    5: 20_000,
    7: 5000,
    9: 15_000,
    12: 10_000,
    16: 7000,
  };
  return { messages, tokens: fixedTokens(messages.map((_, index) => sizes[index] ?? 50)) };
}
// Request of session(): 100 + 30,000 + 20,000 + 5,000 + 15,000 + 10,000 + 7,000 + 11 × 50 = 87,650.
const REQUEST = 87_650;
// Clearing #3 saves the share of its characters that go: 30,000 × (120,000 − 43) / 120,000.
const SAVED_BY_CLEARING = Math.round(
  (30_000 * (BIG_OUTPUT_CHARS - OPENCODE_CLEARED_OUTPUT.length)) / BIG_OUTPUT_CHARS,
);

function planOf(
  messages: Message[],
  tokens: MessageTokens,
  window: number,
  options: Record<string, number> = {},
) {
  return strategy.plan({
    messages,
    tools: [],
    config: configWith(window, options),
    state: initialState,
    tokens,
    prepared: strategy.prepare(messages, []),
  });
}

describe('opencode trigger', () => {
  it('fires at the usable window: window − min(20,000, max output)', () => {
    expect(strategy.trigger(configWith(200_000)).thresholdTokens).toBe(180_000);
    expect(strategy.trigger(configWith(64_000)).thresholdTokens).toBe(44_000);
    // A max output of 8,000 reserves 8,000.
    expect(strategy.trigger(configWith(200_000, {}, { maxTokens: 8000 })).thresholdTokens).toBe(192_000);
    // compaction.reserved replaces the default.
    expect(strategy.trigger(configWith(200_000, { 'opencode.reserved': 50_000 })).thresholdTokens).toBe(
      150_000,
    );
  });

  it('fires at the usable window and not one token below', () => {
    const { messages } = session();
    const at = planOf(
      messages,
      fixedTokens(
        messages.map(() => 10),
        80_000,
      ),
      100_000,
    );
    expect(at.reason).toBe('ready');
    const below = planOf(
      messages,
      fixedTokens(
        messages.map(() => 10),
        79_999,
      ),
      100_000,
    );
    expect(below.reason).toBe('below-threshold');
  });
});

describe('opencode prune', () => {
  it('clears only output older than the newest 40,000 tokens past the last two user turns', () => {
    const { messages, tokens } = session();
    // Window 100,000 → usable 80,000; the request (87,650) overflows it.
    // Walk back: #16 and #12 sit in the last two user turns (#14, #10) and are skipped; then
    // #9 15,000 (15,000), #7 skill (exempt), #5 20,000 (35,000), #3 30,000 (65,000 > 40,000):
    // #3 is cleared, 30,000 > 20,000 so the prune applies, leaving 87,650 − SAVED < 80,000.
    const plan = planOf(messages, tokens, 100_000);
    expect(tokens.request).toBe(REQUEST);
    expect(plan.wouldCompress).toBe(true);
    expect([...plan.fates]).toEqual(messages.map((_, index) => (index === 3 ? FATE.pruned : FATE.kept)));
    expect(plan.prunedSavings).toEqual(new Map([[3, SAVED_BY_CLEARING]]));
    expect(plan.pruned).toEqual([
      {
        index: 3,
        kind: 'one-liner',
        toolName: 'terminal',
        originalChars: BIG_OUTPUT_CHARS,
        replacement: OPENCODE_CLEARED_OUTPUT,
      },
    ]);
    expect(plan.summaries).toEqual([]);
    expect(plan.summaryTokens).toBe(0);
    expect(plan.headEnd).toBe(3);
    expect(plan.tailStart).toBe(4);
    expect(plan.explanation.join(' ')).toContain(
      `under the usable 80,000; opencode summarises only on overflow`,
    );
  });

  it('does not prune when exactly 20,000 tokens or less would be freed', () => {
    const { messages } = session();
    // #3 at 20,000: 15,000 + 20,000 + 20,000 = 55,000 walked, 20,000 prunable: not more than 20,000.
    const sizes = messages.map(
      (_, index) => ({ 3: 20_000, 5: 20_000, 7: 5000, 9: 15_000, 12: 10_000, 16: 7000 })[index] ?? 50,
    );
    const plan = planOf(messages, fixedTokens(sizes), 60_000);
    expect(plan.pruned).toEqual([]);
    expect([...plan.fates].includes(FATE.pruned)).toBe(false);
    expect(plan.explanation[0]).toContain('only when more than 20,000 would be freed');
    // At 25,000 it frees 25,000 and applies.
    sizes[3] = 25_000;
    expect(planOf(messages, fixedTokens(sizes), 60_000).summaries[0]).toBeDefined();
    const applied = planOf(messages, fixedTokens(sizes), 60_000);
    expect(applied.explanation[0]).toContain('1 tool output older than the newest 40,000 tokens');
  });

  it('stops at an earlier summary and never clears skill output', () => {
    const earlier: Message[] = [
      system('s'),
      user('First task'),
      calls([['o1', 'terminal', { command: 'make' }]]),
      result('o1', 'o'.repeat(1000)),
      summaryMessage('user', 'Summary of the first task.'),
      user('Second task'),
      calls([['k1', 'skill', { name: 'x' }]]),
      result('k1', 'k'.repeat(1000)),
      user('Third task'),
      assistant('ok'),
      user('Fourth task'),
      assistant('ok'),
    ];
    // #3 is 90,000 tokens but lies beyond the summary (#4); #7 is a 90,000-token skill output.
    const sizes = earlier.map((_, index) => (index === 3 || index === 7 ? 90_000 : 50));
    const plan = planOf(earlier, fixedTokens(sizes), 400_000, { 'opencode.pruneProtect': 0 });
    expect(plan.pruned).toEqual([]);
    expect(plan.explanation[0]).toContain('nothing is cleared');
  });

  it('can be switched off', () => {
    const { messages, tokens } = session();
    const plan = planOf(messages, tokens, 100_000, { 'opencode.prune': 0 });
    expect(plan.pruned).toEqual([]);
    expect(plan.summaries).toHaveLength(1);
    expect(plan.explanation[0]).toContain('Pruning is off');
  });
});

describe('opencode summary and tail', () => {
  it('keeps the last turns that fit the budget, splitting the older one at an assistant message', () => {
    const { messages, tokens } = session();
    // Window 70,000 → usable 50,000; after the prune 87,650 − SAVED ≈ 57,660 still overflows.
    // Budget: 25% of 50,000 = 12,500, capped at 8,000. Turn #14–#17 = 50 + 50 + 7,000 + 50 = 7,150
    // fits; turn #10–#13 (10,150) does not, and only #13 (50) fits the 850 left: the tail is #13–#17.
    const plan = planOf(messages, tokens, 70_000);
    expect(plan.wouldCompress).toBe(true);
    expect(plan.headEnd).toBe(1);
    expect(plan.tailStart).toBe(13);
    expect([...plan.fates]).toEqual(
      messages.map((_, index) => (index === 0 || index >= 13 ? FATE.kept : FATE.summarized)),
    );
    expect(plan.summaries).toEqual([{ start: 1, end: 13, kind: 'middle' }]);
    // #3 is summarised, so its clearing saves nothing in the projection.
    expect(plan.prunedSavings.size).toBe(0);
    // A tenth of #1–#12 (80,350 tokens) = 8,035, capped at 8,000.
    expect(plan.summaryTokens).toBe(8000);
  });

  it('summarises everything when tail_turns is 0', () => {
    const { messages, tokens } = session();
    const plan = planOf(messages, tokens, 70_000, { 'opencode.tailTurns': 0 });
    expect(plan.tailStart).toBe(messages.length);
    expect(plan.summaries).toEqual([{ start: 1, end: messages.length, kind: 'middle' }]);
  });

  it('puts the kept turns before "What did we do so far?" and the summary, then a continue message', async () => {
    const { messages, tokens } = session();
    const config = configWith(70_000);
    const plan = planOf(messages, tokens, 70_000);
    const compaction = await strategy.compact(
      { messages, tools: [], config, state: initialState, tokens, prepared: strategy.prepare(messages, []) },
      deps,
    );
    expect([...compaction.fates]).toEqual([...plan.fates]);
    const output = compaction.messages;
    expect(output.slice(0, 6)).toEqual([messages[0], ...messages.slice(13)]);
    expect(output[6]).toMatchObject({ role: 'user', content: OPENCODE_SUMMARY_REQUEST });
    expect(output[7]!.role).toBe('assistant');
    expect(compaction.summaries[0]!.outputIndex).toBe(7);
    expect(output[8]).toMatchObject({ role: 'user', content: OPENCODE_CONTINUE });
    expect(output).toHaveLength(9);
    // The offline summary quotes the latest ask of the summarised part.
    expect(normalizedText(messageText(output[7]!))).toContain(normalizedText('Now add tests'));
    expect(toolPairProblems(output)).toEqual([]);
    // None of the inserted user messages is taken for something the user said.
    expect(isRealUserMessage(output[6]!, HOST_PRESET) || isRealUserMessage(output[8]!, HOST_PRESET)).toBe(
      false,
    );
    // The summariser read the older turns already pruned.
    expect(compaction.summaries[0]!.prompt).toContain(OPENCODE_CLEARED_OUTPUT);
    expect(compaction.summaries[0]!.prompt).not.toContain('x'.repeat(1000));
  });

  it('puts the summary first when asked, and replays a waiting request last', async () => {
    const { messages, tokens } = session([user('Also update the README')]);
    const withAsk = fixedTokens([...Array.from({ length: 18 }, (_, index) => tokens.of(index)), 50]);
    // With #18 the last two user turns are #18 and #14, so #12 would be pruned too and pruning
    // alone would end the overflow; pruning is off here to look at the summary layout.
    const options = { 'opencode.tailBeforeSummary': 0, 'opencode.prune': 0 };
    const config = configWith(70_000, options);
    const plan = planOf(messages, withAsk, 70_000, options);
    // The waiting request (#18) is set aside; the tail is chosen as before and #18 joins it.
    expect(plan.tailStart).toBe(13);
    expect(plan.fates[18]).toBe(FATE.kept);
    const compaction = await strategy.compact(
      { messages, tools: [], config, state: initialState, tokens: withAsk },
      deps,
    );
    const output = compaction.messages;
    expect(output[1]).toMatchObject({ role: 'user', content: OPENCODE_SUMMARY_REQUEST });
    expect(output[2]!.role).toBe('assistant');
    expect(compaction.summaries[0]!.outputIndex).toBe(2);
    expect(output.slice(3)).toEqual([...messages.slice(13, 18), messages[18]]);
    expect(isUserAsk(output[output.length - 1]!)).toBe(true);

    const tailFirst = await strategy.compact(
      {
        messages,
        tools: [],
        config: configWith(70_000, { 'opencode.prune': 0 }),
        state: initialState,
        tokens: withAsk,
      },
      deps,
    );
    // Tail first: the waiting request still comes last, after the summary.
    expect(tailFirst.messages[tailFirst.messages.length - 1]).toBe(messages[18]);
    expect(tailFirst.messages.at(-2)!.role).toBe('assistant');
  });

  it('prunes without summarising when that ends the overflow', async () => {
    const { messages, tokens } = session();
    const compaction = await strategy.compact(
      { messages, tools: [], config: configWith(100_000), state: initialState, tokens },
      { summarizer: forbiddenSummarizer, now: () => 0 },
    );
    expect(compaction.summarizerCalls).toBe(0);
    expect(compaction.summaries).toEqual([]);
    expect(compaction.messages).toHaveLength(messages.length);
    expect(compaction.messages[3]).toEqual({ ...messages[3], content: OPENCODE_CLEARED_OUTPUT });
    expect(compaction.notes[0]).toContain('so opencode does not summarise');
  });

  it('uses a reviewed summary verbatim and sends the template to a provider', async () => {
    const { messages, tokens } = session();
    const reviewed = await strategy.compact(
      {
        messages,
        tools: [],
        config: configWith(70_000),
        state: initialState,
        tokens,
        summaryOverrides: ['Reviewed body.'],
      },
      { summarizer: forbiddenSummarizer, now: () => 0 },
    );
    expect(reviewed.summaries[0]!.body).toBe('Reviewed body.');
    expect(reviewed.messages[7]!.content).toBe('Reviewed body.');

    const { summarizer, requests } = recordingSummarizer('## Goal\nSet up the project.');
    const provided = await strategy.compact(
      { messages, tools: [], config: configWith(70_000), state: initialState, tokens, focusTopic: 'tests' },
      { summarizer, now: () => 0 },
    );
    expect(requests).toHaveLength(1);
    for (const heading of [
      '## Goal',
      '## Instructions',
      '## Discoveries',
      '## Accomplished',
      '## Relevant files / directories',
    ])
      expect(requests[0]!.prompt).toContain(heading);
    expect(requests[0]!.maxTokens).toBe(20_000);
    expect(requests[0]!.prompt).not.toContain('FOCUS TOPIC');
    expect(provided.notes).toContain("opencode's /compact takes no focus topic; it was not used.");
    expect(provided.state.previousSummary).toBe('## Goal\nSet up the project.');
  });

  it('runs through compactConversation', async () => {
    const { messages, tokens } = session([user('Also update the README')]);
    const outcome = await compactConversation(
      strategy,
      {
        messages,
        tools: [],
        config: configWith(70_000, { 'opencode.prune': 0 }),
        state: initialState,
        tokens: fixedTokens([...Array.from({ length: 18 }, (_, index) => tokens.of(index)), 50]),
        reason: 'manual',
        systemPrompt: '',
      },
      deps,
    );
    expect(outcome.skipped).toBeNull();
    expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore);
    expect(outcome.compaction.summaries).toHaveLength(1);
    expect(toolPairProblems(outcome.messages)).toEqual([]);
    expect(outcome.messages.at(-1)).toEqual(user('Also update the README'));
  });

  it('counts the waiting request as the newest user turn when pruning', () => {
    const { messages, tokens } = session([user('Also update the README')]);
    const withAsk = fixedTokens([...Array.from({ length: 18 }, (_, index) => tokens.of(index)), 50]);
    // The last two user turns are now #18 and #14: walking back from #14, #12 10,000, #9 15,000
    // (25,000), #7 skill, #5 20,000 (45,000 > 40,000: prunable), #3 30,000 (prunable): 50,000 freed.
    const plan = planOf(messages, withAsk, 70_000);
    expect(plan.pruned.map((item) => item.index)).toEqual([3, 5]);
    // 87,700 − about 50,000 is under the usable 50,000: pruning is the whole compaction.
    expect(plan.summaries).toEqual([]);
  });
});

describe('opencode on generated sessions', () => {
  it('compacts without orphans, plan and compact agreeing, ending on a user turn', async () => {
    for (const seed of [5, 17, 41]) {
      const { messages, metadata } = generateAgentTranscript({ messageCount: 240, seed });
      const tools = metadata.tools ?? [];
      for (const options of [{}, { 'opencode.tailBeforeSummary': 0 }] as Record<string, number>[]) {
        const config = configWith(24_000, options);
        const tokens = roughMessageTokens(messages, tools);
        const prepared = strategy.prepare(messages, tools);
        const plan = strategy.plan({
          messages,
          tools,
          config,
          state: initialState,
          tokens,
          prepared,
        });
        expect(plan.wouldCompress).toBe(true);
        const compaction = await strategy.compact(
          { messages, tools, config, state: initialState, tokens, prepared },
          deps,
        );
        expect([...compaction.fates]).toEqual([...plan.fates]);
        expect(toolPairProblems(compaction.messages)).toEqual([]);
        expect(compaction.messages.at(-1)!.role).toBe('user');
        expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
      }
    }
  });
});
