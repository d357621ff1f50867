import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INITIAL_COMPRESSOR_STATE, type CompressorState } from '#core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import type { Summarizer, SummaryRequest } from '#core/compression/summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import { LCM_STRATEGY as strategy } from '#core/strategies/lcm.ts';
import { layoutLcm, prepareLcm, type LcmSettings } from '#core/strategies/lcm-layout.ts';
import { parseLcmSummary } from '#core/strategies/lcm-summary-wrapper.ts';
import { FATE, FATE_NAMES, type MessageTokens } from '#core/strategies/strategy.ts';
import { roughMessageTokens } from '#core/strategies/strategy-kit.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import { latestAskSurvives, toolPairProblems } from '../../helpers/strategy-output-checks.ts';

const call = (id: string, command: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'terminal', arguments: JSON.stringify({ command }) },
});
/** A tool result of about `tokens` tokens (four characters each). */
const result = (id: string, text: string, tokens: number): Message => ({
  role: 'tool',
  tool_call_id: id,
  content: `${text}\n${'data '.repeat(Math.round((tokens * 4) / 5))}`,
});

/** Three asks, each answered through tools; #6 calls two tools at once. */
const SESSION: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Ask A: read the config' },
  { role: 'assistant', content: '', tool_calls: [call('x1', 'cat config.toml')] },
  result('x1', 'config contents', 9000),
  { role: 'assistant', content: 'The config uses port 8080.' },
  { role: 'user', content: 'Ask B: run lint and tests' },
  { role: 'assistant', content: '', tool_calls: [call('x2', 'ruff check .'), call('x3', 'pytest')] },
  result('x2', 'All checks passed!', 6000),
  result('x3', '12 passed', 6000),
  { role: 'assistant', content: 'Lint and tests pass.' },
  { role: 'user', content: 'Ask C: deploy to staging' },
  { role: 'assistant', content: '', tool_calls: [call('x4', 'make deploy-staging')] },
  result('x4', 'deployed to staging', 3000),
  { role: 'assistant', content: 'Deployed.' },
];
/** Token counts chosen by hand. Total 26,800. */
const SESSION_SIZES = [500, 100, 100, 9000, 800, 100, 100, 6000, 6000, 500, 100, 100, 3000, 400];

const handTokens = (sizes: readonly number[]): MessageTokens => ({
  of: (index) => sizes[index]!,
  request: sizes.reduce((sum, size) => sum + size, 0),
  exact: true,
});

const configWith = (options: Record<string, number>, contextLength = 20_000): CompressionConfig => ({
  ...DEFAULT_COMPRESSION_CONFIG,
  contextLength,
  strategyOptions: options,
});

const planFor = (messages: Message[], sizes: readonly number[], config: CompressionConfig) =>
  strategy.plan({
    messages,
    tools: [],
    config,
    state: INITIAL_COMPRESSOR_STATE,
    tokens: handTokens(sizes),
    prepared: strategy.prepare(messages, []),
  });

const compactFor = (
  messages: Message[],
  sizes: readonly number[],
  config: CompressionConfig,
  summarizer: Summarizer = createOfflineSummarizer(),
  extra: { summaryOverrides?: string[]; focusTopic?: string; state?: CompressorState } = {},
) =>
  strategy.compact(
    {
      messages,
      tools: [],
      config,
      state: extra.state ?? INITIAL_COMPRESSOR_STATE,
      tokens: handTokens(sizes),
      ...(extra.summaryOverrides ? { summaryOverrides: extra.summaryOverrides } : {}),
      ...(extra.focusTopic ? { focusTopic: extra.focusTopic } : {}),
    },
    { summarizer, now: () => 0 },
  );

const fateNames = (fates: Uint8Array): string[] => [...fates].map((fate) => FATE_NAMES[fate]!);

function recordingSummarizer(): Summarizer & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    label: 'fake provider',
    offline: false,
    prompts,
    summarize: (request: SummaryRequest) => {
      prompts.push(request.prompt);
      return Promise.resolve(`## Requests\nProvider summary ${prompts.length}`);
    },
  };
}

// Fresh tail with a 4,000-token cap, walking back from #13: 400, +3,000 = 3,400, +100 = 3,500,
// +100 = 3,600 (#10), +500 (#9) = 4,100 > 4,000 → the tail is #10–#13 (3,600 tokens).
// Outside it (#1–#9), whole units with a 10,000-token chunk cap:
//   #1 (100) + #2–#3 (9,100) + #4 (800) = 10,000; + #5 would be 10,100 → leaf [1, 5)
//   #5 (100); + #6–#8 (12,100) would be 12,200 → leaf [5, 6)
//   #6–#8 (12,100, over the cap on its own: a tool group is never split) → leaf [6, 9)
//   #9 (500) → leaf [9, 10)
const SMALL_TAIL = { 'lcm.freshTailMaxTokens': 4000, 'lcm.leafChunkTokens': 10_000 };

describe('lcm: trigger', () => {
  it('starts a sweep at 75% of the window', () => {
    expect(strategy.trigger(configWith({}, 200_000)).thresholdTokens).toBe(150_000);
    expect(strategy.trigger(configWith({ 'lcm.contextThreshold': 50 }, 64_000)).thresholdTokens).toBe(32_000);
  });

  it('fires at or above the threshold only', () => {
    // 26,800 tokens: ≥ 15,000 (75% of 20,000) but < 30,000 (75% of 40,000).
    expect(planFor(SESSION, SESSION_SIZES, configWith(SMALL_TAIL)).wouldCompress).toBe(true);
    const below = planFor(SESSION, SESSION_SIZES, configWith(SMALL_TAIL, 40_000));
    expect(below.wouldCompress).toBe(false);
    expect(below.reason).toBe('below-threshold');
  });
});

describe('lcm: fresh tail and leaf chunks', () => {
  it('keeps the fresh tail raw and cuts the rest into leaf chunks of whole tool groups', () => {
    const plan = planFor(SESSION, SESSION_SIZES, configWith(SMALL_TAIL));
    expect(plan.headEnd).toBe(1);
    expect(plan.tailStart).toBe(10);
    expect(fateNames(plan.fates)).toEqual([
      'kept',
      ...Array<string>(9).fill('summarized'),
      ...Array<string>(4).fill('kept'),
    ]);
    expect(plan.summaries).toEqual([
      { start: 1, end: 5, kind: 'leaf' },
      { start: 5, end: 6, kind: 'leaf' },
      { start: 6, end: 9, kind: 'leaf' },
      { start: 9, end: 10, kind: 'leaf' },
    ]);
    // Each leaf is asked for min(1,200, its chunk) plus ~60 tokens of wrapper:
    // 1,260 + (100 + 60) + 1,260 + (500 + 60).
    expect(plan.summaryTokens).toBe(3240);
    const words = plan.explanation.join(' ');
    expect(words).toContain('leaf chunks');
    expect(words).toContain('Fresh tail');
    expect(words).toContain('never changes the transcript');
  });

  it('takes whichever of 64 messages and 24,000 tokens keeps less', () => {
    // A count of 2 keeps #12–#13, but #12 is a tool result: its group is given up → #13 alone.
    const byCount = planFor(SESSION, SESSION_SIZES, configWith({ 'lcm.freshTailCount': 2 }));
    expect(byCount.tailStart).toBe(13);
    // 24,000 tokens walking back: … #4 makes 17,100, #3 would make 26,100 → the tail is #4–#13,
    // 10 messages: the token cap keeps fewer than 64. #1–#3 make one leaf.
    const capped = planFor(SESSION, SESSION_SIZES, configWith({}));
    expect(capped.tailStart).toBe(4);
    expect(capped.summaries).toEqual([{ start: 1, end: 4, kind: 'leaf' }]);
    // With room for everything after the system prompt, nothing is left to summarise.
    const roomy = planFor(SESSION, SESSION_SIZES, configWith({ 'lcm.freshTailMaxTokens': 30_000 }));
    expect(roomy.tailStart).toBe(1);
    expect(roomy.reason).toBe('no-compressible-window');
  });

  it('keeps the newest message, and its tool group, even over the token cap', () => {
    const newest = planFor(SESSION, SESSION_SIZES, configWith({ 'lcm.freshTailMaxTokens': 100 }));
    expect(newest.tailStart).toBe(13);
    expect(newest.explanation.join(' ')).toContain('kept even over');
    const open = SESSION.slice(0, 13);
    const openPlan = planFor(open, SESSION_SIZES.slice(0, 13), configWith({ 'lcm.freshTailCount': 1 }));
    // The newest message is the result #12; its call #11 comes with it.
    expect(openPlan.tailStart).toBe(11);
  });

  it('compacts to [system][leaf summaries][fresh tail], as planned', async () => {
    const config = configWith(SMALL_TAIL);
    const plan = planFor(SESSION, SESSION_SIZES, config);
    const compaction = await compactFor(SESSION, SESSION_SIZES, config);
    expect(compaction.skipped).toBeNull();
    expect([...compaction.fates]).toEqual([...plan.fates]);
    expect(compaction.summarizerCalls).toBe(4);
    expect(compaction.messages).toHaveLength(1 + 4 + 4);
    expect(compaction.messages[0]).toBe(SESSION[0]);
    expect(compaction.messages.slice(5)).toEqual(SESSION.slice(10));
    const wrappers = compaction.messages.slice(1, 5).map((message) => {
      expect(message.role).toBe('user');
      expect(message._compressed_summary).toBe(true);
      return parseLcmSummary(message)!;
    });
    expect(wrappers.map((wrapper) => [wrapper.id, wrapper.kind, wrapper.depth])).toEqual([
      ['c1-leaf-1', 'leaf', 0],
      ['c1-leaf-2', 'leaf', 0],
      ['c1-leaf-3', 'leaf', 0],
      ['c1-leaf-4', 'leaf', 0],
    ]);
    const first = messageText(compaction.messages[1]!);
    expect(first).toMatch(/^<summary id="c1-leaf-1" kind="leaf" depth="0" messages="#1–#4">\n/);
    expect(first).toContain('\n\nExpand for details about: the exact text of messages #1–#4');
    expect(compaction.summaries.map((summary) => summary.outputIndex)).toEqual([1, 2, 3, 4]);
    expect(compaction.summaries.map((summary) => summary.span)).toEqual(plan.summaries);
    expect(toolPairProblems(compaction.messages)).toEqual([]);
    expect(compaction.notes.join(' ')).toContain('the transcript is unchanged');
  });

  it('quotes the latest ask in the leaf that holds it when it is not in the fresh tail', async () => {
    const config = configWith({ 'lcm.freshTailCount': 1, 'lcm.leafChunkTokens': 10_000 });
    const compaction = await compactFor(SESSION, SESSION_SIZES, config);
    expect(compaction.messages.at(-1)).toBe(SESSION[13]);
    expect(latestAskSurvives(SESSION, compaction.messages)).toBe(true);
    expect(compaction.summaries.at(-1)!.body).toContain("'Ask C: deploy to staging'");
  });
});

/** Eighteen question/answer pairs of 500 tokens each after a system prompt. */
const PAIRS: Message[] = [
  { role: 'system', content: 'You answer questions.' },
  ...Array.from({ length: 18 }, (_, index) => [
    { role: 'user', content: `Question ${index}: what is item ${index}?` },
    { role: 'assistant', content: `Item ${index} is thing ${index}; we decided to keep it.` },
  ]).flat(),
];
const PAIR_SIZES = [200, ...Array<number>(36).fill(500)];
// The last 4 messages are the fresh tail; #1–#32 (16,000 tokens) go into 2,000-token chunks of
// 4 messages each: 8 leaves, [1,5), [5,9), …, [29,33).
const PAIRS_BASE = { 'lcm.freshTailCount': 4, 'lcm.leafChunkTokens': 2000 };

describe('lcm: condensed pass', () => {
  it('condenses 8 depth-0 summaries in a row into one depth-1 summary', async () => {
    const config = configWith(PAIRS_BASE);
    const plan = planFor(PAIRS, PAIR_SIZES, config);
    expect(plan.summaries).toEqual([{ start: 1, end: 33, kind: 'condensed' }]);
    // min(2,000, 8 × 1,200) + 60.
    expect(plan.summaryTokens).toBe(2060);
    expect(plan.explanation.join(' ')).toContain('depth-1');
    const provider = recordingSummarizer();
    const compaction = await compactFor(PAIRS, PAIR_SIZES, config, provider);
    expect([...compaction.fates]).toEqual([...plan.fates]);
    // 8 leaf calls, then one condensing call.
    expect(compaction.summarizerCalls).toBe(9);
    expect(provider.prompts).toHaveLength(9);
    const condensing = provider.prompts[8]!;
    expect(condensing).toContain('PREVIOUS SUMMARY:\n## Requests\nProvider summary 1\nProvider summary 2');
    expect(condensing).toContain('[USER]: Question 15: what is item 15?');
    expect(compaction.messages).toHaveLength(1 + 1 + 4);
    const wrapper = parseLcmSummary(compaction.messages[1]!)!;
    expect([wrapper.kind, wrapper.depth]).toEqual(['condensed', 1]);
    expect(messageText(compaction.messages[1]!)).toContain('descendants="8"');
  });

  it('groups oldest first and leaves the rest at depth 0; sweepMaxDepth 0 runs the leaf pass only', () => {
    const threes = planFor(PAIRS, PAIR_SIZES, configWith({ ...PAIRS_BASE, 'lcm.leafMinFanout': 3 }));
    expect(threes.summaries).toEqual([
      { start: 1, end: 13, kind: 'condensed' },
      { start: 13, end: 25, kind: 'condensed' },
      { start: 25, end: 29, kind: 'leaf' },
      { start: 29, end: 33, kind: 'leaf' },
    ]);
    // Two condensed: min(2,000, 3 × 1,200) + 60 each; two leaves: 1,200 + 60 each.
    expect(threes.summaryTokens).toBe(2 * 2060 + 2 * 1260);
    const leafOnly = planFor(PAIRS, PAIR_SIZES, configWith({ ...PAIRS_BASE, 'lcm.sweepMaxDepth': 0 }));
    expect(leafOnly.summaries).toHaveLength(8);
    expect(leafOnly.summaries.every((span) => span.kind === 'leaf')).toBe(true);
  });

  it("counts and quotes only the user's own requests, not a tool's text in a user message", async () => {
    const messages = PAIRS.map((message, index) =>
      index === 7
        ? {
            role: 'user' as const,
            content: '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>',
          }
        : index === 15
          ? {
              role: 'user' as const,
              content: '[System: Your previous response was truncated by the output limit.]',
            }
          : message,
    );
    const provider = recordingSummarizer();
    const compaction = await compactFor(messages, PAIR_SIZES, configWith(PAIRS_BASE), provider);
    const condensing = provider.prompts[8]!;
    expect(condensing).toContain('[USER]: Question 0: what is item 0?');
    expect(condensing).not.toContain('environment_context');
    expect(condensing).not.toContain('[System: Your previous response');
    const wrapper = messageText(compaction.messages[1]!);
    expect(wrapper).toContain('the exact text of messages #1–#32: 14 user requests, 16 assistant turns.');
  });

  it('writes an offline condensed summary that keeps the requests of its span', async () => {
    const compaction = await compactFor(PAIRS, PAIR_SIZES, configWith(PAIRS_BASE));
    const body = compaction.summaries[0]!.body;
    expect(body).toContain("'Question 0: what is item 0?'");
    expect(body).toContain("'Question 15: what is item 15?'");
    expect(body).toContain('## What happened');
  });
});

describe('lcm: later compactions', () => {
  it('keeps earlier summaries as DAG nodes and condenses them with new leaves', async () => {
    // First compaction: the first 9 pairs (#1–#18) with a 2-message tail → #1–#16 in 4 leaves.
    const first = PAIRS.slice(0, 19);
    const config = configWith({ ...PAIRS_BASE, 'lcm.freshTailCount': 2 });
    const once = await compactFor(first, PAIR_SIZES.slice(0, 19), config);
    expect(once.summaries.map((summary) => summary.span.kind)).toEqual(['leaf', 'leaf', 'leaf', 'leaf']);
    expect(once.messages).toHaveLength(1 + 4 + 2);

    // Then the conversation goes on with the other 9 pairs; the new input holds 4 summaries.
    const grown = [...once.messages, ...PAIRS.slice(19)];
    const sizes = [200, 1000, 1000, 1000, 1000, ...Array<number>(grown.length - 5).fill(500)];
    const secondConfig = configWith(PAIRS_BASE);
    const plan = planFor(grown, sizes, secondConfig);
    // Tail: the last 4. Raw before it: #5–#20 (2 + 18 − 4 = 16 messages, 8,000 tokens) → 4
    // leaves; with the 4 earlier leaves that makes 8 depth-0 nodes in a row: one condensed.
    expect(plan.summaries).toEqual([{ start: 1, end: grown.length - 4, kind: 'condensed' }]);
    expect(fateNames(plan.fates).slice(1, 5)).toEqual(Array<string>(4).fill('summarized'));
    const twice = await compactFor(grown, sizes, secondConfig, createOfflineSummarizer(), {
      state: once.state,
    });
    expect([...twice.fates]).toEqual([...plan.fates]);
    // 4 new leaves and the condensing call; the 4 earlier leaves are read back, not re-summarised.
    expect(twice.summarizerCalls).toBe(5);
    expect(parseLcmSummary(twice.messages[1]!)!.id).toBe('c2-condensed-1');

    // With leaf-only sweeps the earlier summaries stay exactly as they were.
    const leafOnly = await compactFor(grown, sizes, configWith({ ...PAIRS_BASE, 'lcm.sweepMaxDepth': 0 }));
    expect(leafOnly.messages.slice(1, 5)).toEqual(once.messages.slice(1, 5));
    expect(leafOnly.messages.slice(5, 9).map((message) => parseLcmSummary(message)!.id)).toEqual([
      'c2-leaf-1',
      'c2-leaf-2',
      'c2-leaf-3',
      'c2-leaf-4',
    ]);
  });
});

describe('lcm: summaries', () => {
  it('uses reviewed summaries verbatim, one per inserted summary in order, with no summariser call', async () => {
    const config = configWith(SMALL_TAIL);
    const overrides = ['Leaf one, reviewed.', 'Leaf two.', 'Leaf three.', 'Leaf four.'];
    const compaction = await compactFor(SESSION, SESSION_SIZES, config, recordingSummarizer(), {
      summaryOverrides: overrides,
    });
    expect(compaction.summarizerCalls).toBe(0);
    expect(compaction.summaries.map((summary) => summary.body)).toEqual(overrides);
    expect(parseLcmSummary(compaction.messages[1]!)!.body).toBe('Leaf one, reviewed.');
    const condensed = await compactFor(PAIRS, PAIR_SIZES, configWith(PAIRS_BASE), recordingSummarizer(), {
      summaryOverrides: ['The whole span, reviewed.'],
    });
    expect(condensed.summarizerCalls).toBe(0);
    expect(condensed.summaries[0]!.body).toBe('The whole span, reviewed.');
  });

  it("sends a provider the leaf template's headings, and notes that a focus is not supported", async () => {
    const provider = recordingSummarizer();
    const compaction = await compactFor(SESSION, SESSION_SIZES, configWith(SMALL_TAIL), provider, {
      focusTopic: 'deployment',
    });
    expect(provider.prompts).toHaveLength(4);
    for (const heading of [
      '## Requests',
      '## What happened',
      '## Decisions',
      '## Files and identifiers',
      '## Still open',
    ])
      expect(provider.prompts[0]).toContain(heading);
    expect(provider.prompts[0]).toContain('lossless memory');
    expect(provider.prompts[0]).not.toContain('FOCUS TOPIC');
    expect(compaction.notes.join(' ')).toContain('takes no focus topic');
  });
});

describe('lcm: through compactConversation and at scale', () => {
  it('runs as the one compaction operation', async () => {
    const result = await compactConversation(
      strategy,
      {
        messages: SESSION,
        tools: [],
        config: configWith(SMALL_TAIL),
        state: INITIAL_COMPRESSOR_STATE,
        tokens: handTokens(SESSION_SIZES),
        reason: 'manual',
        systemPrompt: '',
      },
      { summarizer: createOfflineSummarizer(), now: () => 0 },
    );
    expect(result.skipped).toBeNull();
    expect(result.messages).toHaveLength(9);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
  });

  it('fires on the demo at a 64K window', () => {
    const { messages, metadata } = buildDemoTranscript();
    const tools = metadata.tools ?? [];
    const plan = strategy.plan({
      messages,
      tools,
      config: configWith({}, 64_000),
      state: INITIAL_COMPRESSOR_STATE,
      tokens: roughMessageTokens(messages, tools),
      prepared: strategy.prepare(messages, tools),
    });
    expect(plan.wouldCompress).toBe(true);
    expect(plan.summaries.length).toBeGreaterThan(0);
  });

  it.each([1, 2, 3, 4])(
    'compacts generated transcript %i without orphans, keeping the latest ask',
    async (seed) => {
      const { messages, metadata } = generateAgentTranscript({ messageCount: 300, seed });
      const tools = metadata.tools ?? [];
      const variants: Record<string, number>[] = [
        {},
        { 'lcm.freshTailCount': 7, 'lcm.leafChunkTokens': 4000, 'lcm.leafMinFanout': 3 },
      ];
      for (const options of variants) {
        const config = configWith(options, 32_000);
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
        expect(compaction.summaries.map((summary) => summary.span)).toEqual(plan.summaries);
        expect(toolPairProblems(compaction.messages)).toEqual([]);
        expect(latestAskSurvives(messages, compaction.messages)).toBe(true);
        expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
      }
    },
  );
});

describe('lcm: one layout for a plan and the compaction after it', () => {
  const { messages } = generateAgentTranscript({ messageCount: 400, seed: 7 });
  const sizes = messages.map((message) => Math.ceil(messageText(message).length / 4) + 3);
  const SETTINGS: LcmSettings = {
    thresholdShare: 0.75,
    tailCount: 16,
    tailTokens: 6000,
    chunkTokens: 3000,
    leafTarget: 600,
    condense: true,
    fanout: 4,
  };

  it('gives the compaction the layout its plan made, for a copy of the list and counts alike', () => {
    const prepared = prepareLcm(messages);
    const planned = layoutLcm(messages, handTokens(sizes), SETTINGS, prepared);
    expect(layoutLcm([...messages], handTokens([...sizes]), { ...SETTINGS }, prepared)).toBe(planned);
  });

  it('lays out again when a count, a setting or a message differs, as a fresh layout would', () => {
    const prepared = prepareLcm(messages);
    const planned = layoutLcm(messages, handTokens(sizes), SETTINGS, prepared);
    const recounted = sizes.map((size, index) => (index === 120 ? size + 5000 : size));
    // A message replaced by a user turn where that moves a cut (the first such index).
    const replacedAt = (index: number): Message[] =>
      messages.map((message, at) => (at === index ? { role: 'user' as const, content: 'x' } : message));
    const moved = messages.findIndex(
      (_, index) =>
        JSON.stringify(layoutLcm(replacedAt(index), handTokens(sizes), SETTINGS, prepareLcm(messages))) !==
        JSON.stringify(planned),
    );
    const replaced = replacedAt(moved);
    const changes: [Message[], number[], LcmSettings][] = [
      [messages, recounted, SETTINGS],
      [messages, sizes, { ...SETTINGS, chunkTokens: 2000 }],
      [messages, sizes, { ...SETTINGS, condense: false }],
      [replaced, sizes, SETTINGS],
    ];
    for (const [list, counts, settings] of changes) {
      // Each change right after a plan, whose layout is the one kept.
      const replanned = prepareLcm(messages);
      layoutLcm(messages, handTokens(sizes), SETTINGS, replanned);
      const layout = layoutLcm(list, handTokens(counts), settings, replanned);
      expect(layout).not.toEqual(planned);
      expect(layout).toEqual(layoutLcm(list, handTokens(counts), settings, prepareLcm(list)));
    }
  });

  it('never changes a layout: any sequence of plans matches layouts made from nothing', () => {
    const step = fc.record({
      bump: fc.option(fc.tuple(fc.nat(messages.length - 1), fc.integer({ min: -50, max: 9000 })), {
        nil: null,
      }),
      chunkTokens: fc.constantFrom(2000, 3000),
      tailCount: fc.constantFrom(8, 16),
      copy: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 5 }), (steps) => {
        const prepared = prepareLcm(messages);
        for (const { bump, chunkTokens, tailCount, copy } of steps) {
          const counts = bump
            ? sizes.map((size, index) => (index === bump[0] ? Math.max(0, size + bump[1]) : size))
            : sizes;
          const settings = { ...SETTINGS, chunkTokens, tailCount };
          const list = copy ? [...messages] : messages;
          expect(layoutLcm(list, handTokens(counts), settings, prepared)).toEqual(
            layoutLcm(list, handTokens(counts), settings, prepareLcm(list)),
          );
        }
      }),
      { numRuns: 200 },
    );
  });
});
