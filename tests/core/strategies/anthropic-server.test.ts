import { describe, expect, it } from 'vitest';
import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import type { Summarizer, SummaryRequest } from '#core/compression/summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '#core/config/compression-config.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { toAnthropicRequest } from '#core/providers/anthropic/to-anthropic-request.ts';
import {
  ANTHROPIC_SERVER_STRATEGY as strategy,
  CLEARED_TOOL_RESULT_PLACEHOLDER,
} from '#core/strategies/anthropic-server.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import { FATE, FATE_NAMES, type MessageTokens, type PlanInput } from '#core/strategies/strategy.ts';
import { HOST_PRESET, roughMessageTokens } from '#core/strategies/strategy-kit.ts';
import { estimateMessageTokensRough } from '#core/tokens/estimate-messages-tokens-rough.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import { latestAskSurvives, toolPairProblems } from '../../helpers/strategy-output-checks.ts';

const call = (id: string, name: string, args: Record<string, string>) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});
const result = (id: string, text: string): Message => ({ role: 'tool', tool_call_id: id, content: text });

/**
 * A request in the middle of a tool loop: the latest ask (#8) was answered by one tool round
 * (#9–#10) and the model has just received the results of a second one (#11–#12).
 */
const LOOP: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Set up the project in ./app' },
  { role: 'assistant', content: '', tool_calls: [call('c1', 'read_file', { path: 'app/a.py' })] },
  result('c1', 'contents of app/a.py (first read)'),
  {
    role: 'assistant',
    content: 'Running both checks.',
    tool_calls: [
      call('c2', 'terminal', { command: 'ruff check .' }),
      call('c3', 'terminal', { command: 'pytest' }),
    ],
  },
  result('c2', 'ruff: All checks passed!'),
  result('c3', 'pytest: 12 passed'),
  { role: 'assistant', content: 'The project is set up.' },
  { role: 'user', content: 'Now fix the failing login test' },
  { role: 'assistant', content: '', tool_calls: [call('c4', 'terminal', { command: 'pytest -k login' })] },
  result('c4', 'FAILED tests/test_login.py::test_login - AssertionError'),
  { role: 'assistant', content: '', tool_calls: [call('c5', 'read_file', { path: 'tests/test_login.py' })] },
  result('c5', 'contents of tests/test_login.py'),
];
/** Token counts chosen by hand, so every threshold below can be worked out on paper. */
const LOOP_SIZES = [1000, 100, 200, 30_000, 200, 20_000, 20_000, 500, 100, 200, 40_000, 200, 50_000];
const LOOP_TOTAL = LOOP_SIZES.reduce((sum, size) => sum + size, 0); // 162,500

const handTokens = (sizes: readonly number[]): MessageTokens => ({
  of: (index) => sizes[index]!,
  request: sizes.reduce((sum, size) => sum + size, 0),
  exact: true,
});

const configWith = (options: Record<string, number>, contextLength = 200_000): CompressionConfig => ({
  ...DEFAULT_COMPRESSION_CONFIG,
  contextLength,
  strategyOptions: options,
});

function planFor(messages: Message[], sizes: readonly number[], config: CompressionConfig) {
  const input: PlanInput = {
    messages,
    tools: [],
    config,
    state: INITIAL_COMPRESSOR_STATE,
    tokens: handTokens(sizes),
    prepared: strategy.prepare(messages, []),
  };
  return strategy.plan(input);
}

const compactFor = (
  messages: Message[],
  sizes: readonly number[],
  config: CompressionConfig,
  summarizer: Summarizer = createOfflineSummarizer(),
  extra: { summaryOverrides?: string[]; focusTopic?: string } = {},
) =>
  strategy.compact(
    { messages, tools: [], config, state: INITIAL_COMPRESSOR_STATE, tokens: handTokens(sizes), ...extra },
    { summarizer, now: () => 0 },
  );

const fateNames = (fates: Uint8Array): string[] => [...fates].map((fate) => FATE_NAMES[fate]!);

/** A summariser standing in for a provider: it records each prompt and answers in kind. */
function recordingSummarizer(): Summarizer & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    label: 'fake provider',
    offline: false,
    prompts,
    summarize: (request: SummaryRequest) => {
      prompts.push(request.prompt);
      return Promise.resolve(`## Task\nProvider summary ${prompts.length}`);
    },
  };
}

const clearedSize = (message: Message): number =>
  estimateMessageTokensRough({ ...message, content: CLEARED_TOOL_RESULT_PLACEHOLDER }, HOST_PRESET);

describe('anthropic-server: trigger', () => {
  it('fires compact_20260112 at 150,000 input tokens by default, whatever the window', () => {
    expect(strategy.trigger(configWith({})).thresholdTokens).toBe(150_000);
    expect(strategy.trigger(configWith({}, 1_000_000)).thresholdTokens).toBe(150_000);
  });

  it('never goes below the API minimum of 50,000', () => {
    expect(
      strategy.trigger(configWith({ 'anthropic-server.compactTriggerTokens': 10_000 })).thresholdTokens,
    ).toBe(50_000);
  });

  it('starts at the clearing trigger when clear_tool_uses is on and comes first', () => {
    const trigger = strategy.trigger(configWith({ 'anthropic-server.clearToolUses': 1 }));
    expect(trigger.thresholdTokens).toBe(100_000);
    expect(trigger.rule).toContain('clear_tool_uses_20250919 at 100,000');
  });

  it('says when the trigger is above the window', () => {
    expect(strategy.trigger(configWith({}, 64_000)).rule).toContain('above the 64,000-token window');
  });
});

describe('anthropic-server: compaction', () => {
  // 162,500 ≥ 150,000: compaction fires. The latest ask is #8; the last step is the call #11
  // with its result #12. Everything else after the system prompt (#1–#7, #9–#10) is summarised.
  const expectedFates = [
    'kept',
    ...Array<string>(7).fill('summarized'),
    'kept',
    'summarized',
    'summarized',
    'kept',
    'kept',
  ];

  it('plans: summary for everything before the latest request, which is kept with the last step', () => {
    const plan = planFor(LOOP, LOOP_SIZES, configWith({}));
    expect(LOOP_TOTAL).toBe(162_500);
    expect(plan.wouldCompress).toBe(true);
    expect(plan.reason).toBe('ready');
    expect(fateNames(plan.fates)).toEqual(expectedFates);
    expect(plan.headEnd).toBe(1);
    expect(plan.tailStart).toBe(11);
    expect(plan.summaries).toEqual([{ start: 1, end: 11, kind: 'middle' }]);
    // Summarised: 100+200+30,000+200+20,000+20,000+500+200+40,000 = 111,200 → a tenth, capped at 8,000.
    expect(plan.summaryTokens).toBe(8000);
    expect(plan.explanation.join(' ')).toContain('a stand-in');
  });

  it('compacts to [system][summary][latest ask][last step], as planned', async () => {
    const plan = planFor(LOOP, LOOP_SIZES, configWith({}));
    const compaction = await compactFor(LOOP, LOOP_SIZES, configWith({}));
    expect(compaction.skipped).toBeNull();
    expect([...compaction.fates]).toEqual([...plan.fates]);
    expect(compaction.messages.map((message) => message.role)).toEqual([
      'system',
      'assistant',
      'user',
      'assistant',
      'tool',
    ]);
    expect(compaction.messages[1]!._compressed_summary).toBe(true);
    expect(compaction.messages[2]).toBe(LOOP[8]);
    expect(compaction.messages.slice(3)).toEqual(LOOP.slice(11));
    expect(compaction.summaries[0]!.outputIndex).toBe(1);
    expect(toolPairProblems(compaction.messages)).toEqual([]);
    expect(latestAskSurvives(LOOP, compaction.messages)).toBe(true);
    expect(compaction.state.compressionCount).toBe(1);
    expect(compaction.state.previousSummary).toBe(compaction.summaries[0]!.body);
    expect(compaction.notes.join(' ')).toContain("The server's own summary is not available offline");
  });

  it('converts to an Anthropic request that alternates and opens with the compaction summary', async () => {
    const compaction = await compactFor(LOOP, LOOP_SIZES, configWith({}));
    const { body, warnings } = toAnthropicRequest(compaction.messages, {
      model: 'claude-test',
      maxTokens: 1024,
      stream: false,
      cacheMarkersApplied: false,
    });
    expect(warnings).toEqual([]);
    expect(body.messages.map((turn) => turn.role)).toEqual(['assistant', 'user', 'assistant', 'user']);
    expect(body.messages[1]!.content[0]).toMatchObject({
      type: 'text',
      text: 'Now fix the failing login test',
    });
    expect(body.messages[3]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'c5' });
  });

  it('keeps a final answer after the latest ask, and a request that ends with the ask', async () => {
    const answered: Message[] = [
      ...LOOP.slice(0, 11),
      { role: 'assistant', content: 'Fixed: the fixture now logs in.' },
    ];
    const sizes = [...LOOP_SIZES.slice(0, 11), 300];
    const plan = planFor(answered, sizes, configWith({}));
    // Latest ask #8 and the final answer #11 are kept; #9–#10 (the tool round between) are summarised.
    expect(fateNames(plan.fates).slice(8)).toEqual(['kept', 'summarized', 'summarized', 'kept']);
    expect(plan.tailStart).toBe(11);
    const asking = LOOP.slice(0, 9);
    const askPlan = planFor(
      asking,
      LOOP_SIZES.slice(0, 9),
      configWith({ 'anthropic-server.compactTriggerTokens': 50_000 }),
    );
    // The request ends with the ask (#8): it is the whole tail.
    expect(askPlan.tailStart).toBe(8);
    const compaction = await compactFor(asking, LOOP_SIZES.slice(0, 9), configWith({}));
    expect(compaction.messages.map((message) => message.role)).toEqual(['system', 'assistant', 'user']);
  });

  it('does not fire below the trigger, yet shows what an on-demand compaction would do', () => {
    const plan = planFor(LOOP, LOOP_SIZES, configWith({ 'anthropic-server.compactTriggerTokens': 170_000 }));
    expect(plan.wouldCompress).toBe(false);
    expect(plan.reason).toBe('below-threshold');
    expect(fateNames(plan.fates)).toEqual(expectedFates);
    expect(plan.explanation.join(' ')).toContain('on-demand compaction');
  });

  it('has nothing to compact when only the latest request is there', async () => {
    const messages: Message[] = [LOOP[0]!, LOOP[8]!];
    const plan = planFor(messages, [1000, 200_000], configWith({}));
    expect(plan.reason).toBe('no-compressible-window');
    const compaction = await compactFor(messages, [1000, 200_000], configWith({}));
    expect(compaction.skipped).toBe('no-compressible-window');
  });
});

describe('anthropic-server: clear_tool_uses before compaction', () => {
  it('clears all but the 3 most recent tool uses; if that gets under the compaction trigger, nothing is summarised', async () => {
    const config = configWith({ 'anthropic-server.clearToolUses': 1 });
    // Tool uses, oldest first: c1, c2, c3 (parallel, one each), c4, c5. Keeping the newest 3
    // (c3, c4, c5) clears the results of c1 (#3) and c2 (#5): 162,500 − ~50,000 ≈ 112,500,
    // under 150,000, so compaction does not fire.
    const plan = planFor(LOOP, LOOP_SIZES, config);
    expect(plan.wouldCompress).toBe(true);
    const expected = LOOP.map(() => 'kept');
    expected[3] = 'pruned';
    expected[5] = 'pruned';
    expect(fateNames(plan.fates)).toEqual(expected);
    expect(plan.summaries).toEqual([]);
    expect(plan.summaryTokens).toBe(0);
    expect(plan.prunedSavings).toEqual(
      new Map([
        [3, 30_000 - clearedSize(LOOP[3]!)],
        [5, 20_000 - clearedSize(LOOP[5]!)],
      ]),
    );
    expect(plan.explanation.join(' ')).toContain('does not fire');

    const compaction = await compactFor(LOOP, LOOP_SIZES, config);
    expect([...compaction.fates]).toEqual([...plan.fates]);
    expect(compaction.summaries).toEqual([]);
    expect(compaction.summarizerCalls).toBe(0);
    expect(compaction.messages).toHaveLength(LOOP.length);
    expect(compaction.messages[3]).toEqual({ ...LOOP[3], content: CLEARED_TOOL_RESULT_PLACEHOLDER });
    expect(compaction.messages[5]!.content).toBe(CLEARED_TOOL_RESULT_PLACEHOLDER);
    expect(compaction.messages[6]).toBe(LOOP[6]);
    expect(compaction.messages[12]).toBe(LOOP[12]);
  });

  it('compacts what is left when clearing is not enough, writing the summary from the cleared prompt', async () => {
    // Same clearing (≈112,500 left), but the compaction trigger is 100,000: both edits apply.
    const config = configWith({
      'anthropic-server.clearToolUses': 1,
      'anthropic-server.compactTriggerTokens': 100_000,
    });
    const plan = planFor(LOOP, LOOP_SIZES, config);
    // #3 and #5 are cleared and then summarised: the summary stands for them.
    expect(fateNames(plan.fates)).toEqual([
      'kept',
      ...Array<string>(7).fill('summarized'),
      'kept',
      'summarized',
      'summarized',
      'kept',
      'kept',
    ]);
    expect(plan.prunedSavings.size).toBe(0);
    const provider = recordingSummarizer();
    const compaction = await compactFor(LOOP, LOOP_SIZES, config, provider);
    expect([...compaction.fates]).toEqual([...plan.fates]);
    expect(provider.prompts).toHaveLength(1);
    expect(provider.prompts[0]).toContain(CLEARED_TOOL_RESULT_PLACEHOLDER);
    expect(provider.prompts[0]).not.toContain('contents of app/a.py (first read)');
    expect(provider.prompts[0]).toContain('pytest: 12 passed');
  });

  it('keeps parallel results of the newest tool uses and leaves short results alone', () => {
    // keep 2 → c4 and c5 stay; c1, c2, c3 are cleared. #7 and the user turns are untouched.
    const plan = planFor(
      LOOP,
      LOOP_SIZES,
      configWith({ 'anthropic-server.clearToolUses': 1, 'anthropic-server.clearKeepToolUses': 2 }),
    );
    expect([3, 5, 6, 10, 12].map((index) => FATE_NAMES[plan.fates[index]!])).toEqual([
      'pruned',
      'pruned',
      'pruned',
      'kept',
      'kept',
    ]);
    const tiny = LOOP.map((message) => (message.role === 'tool' ? { ...message, content: 'ok' } : message));
    const tinyPlan = planFor(
      tiny,
      LOOP.map((message) => (message.role === 'tool' ? 1 : 60_000)),
      configWith({ 'anthropic-server.clearToolUses': 1 }),
    );
    // A 1-token result is shorter than the placeholder: clearing it would save nothing.
    expect([...tinyPlan.fates].every((fate) => fate !== FATE.pruned)).toBe(true);
  });
});

describe('anthropic-server: summaries', () => {
  it('uses a reviewed summary verbatim, with no summariser call', async () => {
    const compaction = await compactFor(LOOP, LOOP_SIZES, configWith({}), recordingSummarizer(), {
      summaryOverrides: ['Reviewed: the project is set up; the login test fails.'],
    });
    expect(compaction.summarizerCalls).toBe(0);
    expect(compaction.summaries[0]!.body).toBe('Reviewed: the project is set up; the login test fails.');
    expect(messageText(compaction.messages[1]!)).toContain('Reviewed: the project is set up');
  });

  it("sends a provider our template's headings and the focus topic", async () => {
    const provider = recordingSummarizer();
    const compaction = await compactFor(LOOP, LOOP_SIZES, configWith({}), provider, {
      focusTopic: 'the login test',
    });
    for (const heading of ['## Task', '## Where things stand', '## Exact details', '## Files', '## Next'])
      expect(provider.prompts[0]).toContain(heading);
    expect(provider.prompts[0]).toContain('FOCUS TOPIC: "the login test"');
    expect(compaction.summaries[0]!.body).toBe('## Task\nProvider summary 1');
  });

  it('writes an offline summary that quotes the latest ask', async () => {
    const compaction = await compactFor(LOOP, LOOP_SIZES, configWith({}));
    expect(compaction.summaries[0]!.body).toContain("'Now fix the failing login test'");
    expect(compaction.summaries[0]!.body).toContain('## Where things stand');
  });
});

describe('anthropic-server: through compactConversation and on generated transcripts', () => {
  it('runs as the one compaction operation', async () => {
    const result = await compactConversation(
      strategy,
      {
        messages: LOOP,
        tools: [],
        config: configWith({}),
        state: INITIAL_COMPRESSOR_STATE,
        tokens: handTokens(LOOP_SIZES),
        reason: 'manual',
        systemPrompt: '',
      },
      { summarizer: createOfflineSummarizer(), now: () => 0 },
    );
    expect(result.skipped).toBeNull();
    expect(result.messages).toHaveLength(5);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(toolPairProblems(result.messages)).toEqual([]);
  });

  it.each([1, 2, 3, 4])(
    'compacts generated transcript %i without orphans, keeping the latest ask',
    async (seed) => {
      const { messages, metadata } = generateAgentTranscript({ messageCount: 240, seed });
      const tools = metadata.tools ?? [];
      const variants: Record<string, number>[] = [
        { 'anthropic-server.compactTriggerTokens': 50_000 },
        {
          'anthropic-server.compactTriggerTokens': 50_000,
          'anthropic-server.clearToolUses': 1,
          'anthropic-server.clearTriggerTokens': 40_000,
        },
      ];
      for (const options of variants) {
        const config = configWith(options, 128_000);
        const tokens = roughMessageTokens(messages, tools);
        const plan = strategy.plan({
          messages,
          tools,
          config,
          state: INITIAL_COMPRESSOR_STATE,
          tokens,
          prepared: strategy.prepare(messages, tools),
        });
        expect(plan.wouldCompress).toBe(true);
        const compaction = await strategy.compact(
          { messages, tools, config, state: INITIAL_COMPRESSOR_STATE, tokens },
          { summarizer: createOfflineSummarizer(), now: () => 0 },
        );
        expect(compaction.skipped).toBeNull();
        expect([...compaction.fates]).toEqual([...plan.fates]);
        expect(compaction.fates.includes(FATE.dropped)).toBe(false);
        expect(toolPairProblems(compaction.messages)).toEqual([]);
        expect(latestAskSurvives(messages, compaction.messages)).toBe(true);
        expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
      }
    },
  );
});
