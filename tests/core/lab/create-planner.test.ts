import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { planCompression } from '#core/compression/plan-compression.ts';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import { requestPressureTokens } from '#core/loop/pre-api-compression-check.ts';
import { requestMessages } from '#core/loop/request-messages.ts';
import { BROWSER_TOOL_SCHEMAS } from '#core/tools/browser-tool-schemas.ts';
import { CODEX_CLI_STRATEGY } from '#core/strategies/codex-cli.ts';
import { HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY } from '#core/strategies/hermes.ts';
import { FATE } from '#core/strategies/strategy.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import { estimateMessagesTokensRough } from '#core/tokens/estimate-messages-tokens-rough.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

/**
 * The generated session with its first long-result tool call given a bool command: 2026-04's
 * one-liner raises on it once it is old enough to be pruned (plan reason `hermes-raised`).
 */
function withRaisingCall(transcript: Transcript): Transcript {
  const messages = transcript.messages.map((message) => ({ ...message }));
  const resultIndex = messages.findIndex(
    (message) =>
      message.role === 'tool' && typeof message.content === 'string' && message.content.length > 400,
  );
  const id = messages[resultIndex]!.tool_call_id;
  const callIndex = messages.findIndex((message) => message.tool_calls?.some((call) => call.id === id));
  messages[callIndex] = {
    ...messages[callIndex]!,
    tool_calls: messages[callIndex]!.tool_calls!.map((call) =>
      call.id === id ? { ...call, function: { name: 'terminal', arguments: '{"command": true}' } } : call,
    ),
  };
  return { ...transcript, messages };
}

const demo = buildDemoTranscript();
const generated = generateAgentTranscript({ messageCount: 800, seed: 7 });
const config = (overrides: Partial<CompressionConfig> = {}): CompressionConfig => ({
  ...DEFAULT_COMPRESSION_CONFIG,
  ...overrides,
});

describe('createPlanner', () => {
  it('plans Hermes exactly as planCompression does, setting after setting, on one set of caches', () => {
    const planner = createPlanner(generated.messages, { tools: generated.metadata.tools ?? [] });
    const settings: Partial<CompressionConfig>[] = [
      {},
      { contextLength: 64_000 },
      { contextLength: 1_000_000, thresholdPercent: 0.8, targetRatio: 0.5 },
      { protectLastN: 5, protectFirstN: 0, targetRatio: 0.1 },
    ];
    for (const strategy of [HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY]) {
      const prepared = planner.prepared(strategy);
      for (const overrides of settings) {
        const plan = planner.plan(strategy, { config: config(overrides), estimator: 'rough', nowMs: 0 });
        const reference = planCompression(generated.messages, {
          config: config(overrides),
          preset: strategy.preset,
          state: createCompressorState(),
        });
        expect(plan.headEnd).toBe(reference.boundaries?.headEnd);
        expect(plan.tailStart).toBe(reference.boundaries?.tailStart);
        expect(plan.hermes?.pruneBoundary).toBe(reference.pruneBoundary);
        expect(plan.hermes?.prunedCount).toBe(reference.prunedCount);
        expect(plan.hermes?.tailCutSteps).toEqual(reference.boundaries?.steps);
        // The per-transcript work is done once and reused by every later plan.
        expect(planner.prepared(strategy)).toBe(prepared);
      }
    }
  });

  it('partitions the messages into system, tools, head, middle and tail with fates that agree', () => {
    const planner = createPlanner(demo.messages, { tools: demo.metadata.tools ?? [] });
    const plan = planner.plan(HERMES_2026_07_STRATEGY, { config: config(), estimator: 'rough' });
    expect(plan.regions.map((region) => region.name)).toEqual(['system', 'tools', 'head', 'middle', 'tail']);
    const [system, tools, head, middle, tail] = plan.regions;
    expect([system!.start, system!.end, tools!.start, tools!.end]).toEqual([0, 1, 1, 1]);
    expect([head!.end, middle!.start, middle!.end, tail!.start, tail!.end]).toEqual([
      plan.headEnd,
      plan.headEnd,
      plan.tailStart,
      plan.tailStart,
      demo.messages.length,
    ]);
    for (let index = 0; index < demo.messages.length; index++) {
      const inside = index >= plan.headEnd && index < plan.tailStart;
      expect(plan.fates[index] === FATE.summarized, `#${index}`).toBe(inside);
    }
    const totals = plan.fateTotals;
    expect(totals.kept.messages + totals.pruned.messages + totals.summarized.messages).toBe(
      demo.messages.length,
    );
    expect(totals.kept.tokens + totals.pruned.tokens + totals.summarized.tokens + plan.toolsTokens).toBe(
      plan.totalTokens,
    );
  });

  it('projects the context after compaction in the map counting: at most kept + shortened + summary + tools', () => {
    const planner = createPlanner(demo.messages, { tools: demo.metadata.tools ?? [] });
    const plan = planner.plan(HERMES_2026_04_STRATEGY, {
      config: config({ contextLength: 64_000 }),
      estimator: 'rough',
    });
    const expected =
      plan.fateTotals.kept.tokens +
      plan.fateTotals.pruned.tokens +
      plan.after.summaryTokens +
      plan.toolsTokens;
    expect(plan.after.tokens).toBeLessThanOrEqual(expected);
    expect(plan.after.tokens).toBeGreaterThan(plan.after.summaryTokens);
    expect(plan.after.messages).toBe(
      plan.fateTotals.kept.messages + plan.fateTotals.pruned.messages + plan.summaries.length,
    );
  });

  it('warns when the kept tail, the trigger or the result exceeds the window', () => {
    const planner = createPlanner(demo.messages, { tools: demo.metadata.tools ?? [] });
    // A 32K window: 2026-04's trigger is raised to the 64K minimum, above the window.
    const plan = planner.plan(HERMES_2026_04_STRATEGY, {
      config: config({ contextLength: 32_000 }),
      estimator: 'rough',
    });
    expect(plan.trigger.thresholdTokens).toBe(64_000);
    expect(
      plan.after.warnings.some((warning) => warning.startsWith('The trigger (64,000 tokens) is above')),
    ).toBe(true);
  });

  it('warns when the projection is larger than the transcript, which the compaction itself refuses', async () => {
    // Ten short turns: the middle is a few hundred tokens, the summary's budget 2,000.
    const short: Transcript['messages'] = Array.from({ length: 10 }, (_, index) => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: `Turn ${index}: rename the parser's entry point and rerun the tests.`,
    }));
    const planner = createPlanner(short, { tools: [] });
    const request = { config: config(), estimator: 'rough' as const };
    const plan = planner.plan(HERMES_2026_07_STRATEGY, request);
    expect(plan.after.tokens).toBeGreaterThanOrEqual(plan.totalTokens);
    const growth = plan.after.warnings.filter((warning) =>
      warning.startsWith('Compacted now, the context would grow'),
    );
    expect(growth).toEqual([
      expect.stringContaining(`from ${plan.totalTokens.toLocaleString('en-US')} to about`),
    ]);
    // What the projection warns of is what the compaction does.
    const compacted = await compactConversation(
      HERMES_2026_07_STRATEGY,
      {
        reason: 'manual',
        systemPrompt: '',
        messages: short,
        tools: [],
        config: request.config,
        state: createCompressorState(),
        force: true,
        today: null,
      },
      { summarizer: createOfflineSummarizer(), now: () => 0 },
    );
    expect(compacted.skipped).toBe('would-grow');
    // A projection that shrinks the context has no such warning.
    const long = createPlanner(demo.messages, { tools: demo.metadata.tools ?? [] }).plan(
      HERMES_2026_07_STRATEGY,
      request,
    );
    expect(long.after.warnings.filter((warning) => warning.includes('would grow'))).toEqual([]);
  });

  it('flags rough and exact counts that disagree about firing', () => {
    const planner = createPlanner(demo.messages, { tools: demo.metadata.tools ?? [] });
    const rough = planner.rough(HERMES_2026_04_STRATEGY.preset);
    // Pretend the exact counts are 20% higher: a trigger between the two totals splits them.
    const perMessage = Array.from(rough.tokens, (tokens) => Math.round(tokens * 1.2));
    const exactTotal = perMessage.reduce((sum, tokens) => sum + tokens, 0) + 100;
    const thresholdPercent = (rough.requestTokens + exactTotal) / 2 / 200_000;
    const plan = planner.plan(HERMES_2026_04_STRATEGY, {
      config: config({ thresholdPercent }),
      estimator: 'o200k_base',
      exact: { encoding: 'o200k_base', perMessage, toolsTokens: 100 },
    });
    expect(plan.counts).toEqual({ rough: rough.requestTokens, exact: exactTotal });
    expect(plan.countsDisagree).toBe(true);
    // Hermes decides on its rough estimate.
    expect(plan.triggerBasis).toBe('rough');
    expect(plan.wouldCompress).toBe(false);
  });

  it('plans the raising session as hermes-raised under 2026-04 and ready under 2026-07', () => {
    const transcript = withRaisingCall(generated);
    const planner = createPlanner(transcript.messages, { tools: transcript.metadata.tools ?? [] });
    const april = planner.plan(HERMES_2026_04_STRATEGY, {
      config: config({ contextLength: 64_000 }),
      estimator: 'rough',
    });
    expect(april.reason).toBe('hermes-raised');
    expect(april.hermes?.raised).toEqual({
      type: 'HermesRaised',
      function: '_summarize_tool_result',
      exception: "TypeError: object of type 'bool' has no len()",
    });
    const july = planner.plan(HERMES_2026_07_STRATEGY, {
      config: config({ contextLength: 64_000 }),
      estimator: 'rough',
    });
    expect(july.reason).toBe('ready');
    expect(july.hermes?.raised).toBeNull();
  });

  it('plans every registered strategy on the demo with fates that cover every message', () => {
    const planner = createPlanner(demo.messages, { tools: demo.metadata.tools ?? [] });
    for (const strategy of STRATEGIES) {
      const plan = planner.plan(strategy, { config: config({ contextLength: 64_000 }), estimator: 'rough' });
      expect(plan.fates, strategy.name).toHaveLength(demo.messages.length);
      expect(plan.strategy).toBe(strategy.name);
      expect(plan.explanation.length, strategy.name).toBeGreaterThan(0);
      expect(plan.headEnd).toBeLessThanOrEqual(plan.tailStart);
      // The after lane is the projection stretch by stretch.
      const segments = plan.after.segments;
      expect(
        segments.reduce((sum, segment) => sum + segment.tokens, 0),
        strategy.name,
      ).toBe(plan.after.tokens);
      expect(
        segments.reduce((sum, segment) => sum + segment.messages, 0),
        strategy.name,
      ).toBe(plan.after.messages);
    }
    const codex = planner.plan(CODEX_CLI_STRATEGY, {
      config: config({ contextLength: 64_000 }),
      estimator: 'rough',
    });
    expect(codex.hermes).toBeNull();
  });

  it('counts its categories on the map basis: in use adds up to the map total, rough and exact', () => {
    const planner = createPlanner(demo.messages, { tools: demo.metadata.tools ?? [] });
    const inUse = (plan: ReturnType<typeof planner.plan>): number =>
      plan.categories.categories
        .filter((category) => category.kind !== 'free-space')
        .reduce((sum, category) => sum + category.tokens, 0);
    const rough = planner.plan(HERMES_2026_04_STRATEGY, { config: config(), estimator: 'rough' });
    expect(inUse(rough)).toBe(rough.totalTokens);
    expect(rough.categories.usedTokens).toBe(rough.totalTokens);
    const freeSpace = rough.categories.categories.find((category) => category.kind === 'free-space')!;
    expect(freeSpace.tokens).toBe(rough.windowTokens - rough.totalTokens);
    expect(rough.categories.categories.find((category) => category.id === 'tool-schemas')!.tokens).toBe(
      rough.toolsTokens,
    );
    const perMessage = demo.messages.map((_, index) => 10 + index);
    const exact = planner.plan(HERMES_2026_04_STRATEGY, {
      config: config(),
      estimator: 'o200k_base',
      exact: { encoding: 'o200k_base', perMessage, toolsTokens: 100 },
    });
    expect(inUse(exact)).toBe(exact.totalTokens);
    expect(exact.categories.categories.find((category) => category.kind === 'thinking')!.tokens).toBe(0);
  });
});

describe('createPlanner: a chat session judged as its live loop does', () => {
  const systemPrompt = 'You review ledger code.';
  const chat = (turns: number): Transcript['messages'] =>
    requestMessages(
      systemPrompt,
      Array.from({ length: turns * 2 }, (_, index) => ({
        role: index % 2 === 0 ? 'user' : 'assistant',
        content: `${index}: ${'The module writes ledger rows. '.repeat(30)}`,
      })),
    );
  const live = (lastSessionPromptTokens = 0) => ({ lastSessionPromptTokens });

  it('fires by hygiene when the provider’s count reaches 85% of a window the trigger is above', () => {
    const planner = createPlanner(chat(20), { tools: BROWSER_TOOL_SCHEMAS });
    const request = { config: config({ contextLength: 32_000 }), estimator: 'rough' as const };
    const quiet = planner.plan(HERMES_2026_04_STRATEGY, { ...request, live: live(0) });
    expect(quiet.trigger.thresholdTokens).toBe(64_000);
    expect(quiet).toMatchObject({ wouldCompress: false, reason: 'below-threshold' });
    expect(quiet.after.warnings).toContain(
      'The trigger (64,000 tokens) is above the 32,000-token window: in the chat, session hygiene compacts at 85% of the window (27,200 tokens) before the provider would reject the request.',
    );
    const reported = planner.plan(HERMES_2026_04_STRATEGY, { ...request, live: live(27_500) });
    expect(reported).toMatchObject({ wouldCompress: true, reason: 'ready' });
    expect(reported.live?.firedBy).toBe('hygiene');
    // The same transcript in the lab: the trigger alone decides.
    const lab = planner.plan(HERMES_2026_04_STRATEGY, request);
    expect(lab.wouldCompress).toBe(false);
    expect(lab.live).toBeUndefined();
  });

  it('draws one total: the count the gauge shows, in the lab and in a chat, under both generations', () => {
    // 2026-04's preflight rounds messages and tool schemas once; the chat's pre-request check
    // rounds them each on its own; 2026-07 rounds each on its own in both. The map's total is
    // whichever count decides, and its messages add up to Hermes' estimate of the messages.
    // Eight turns: 2026-04's one rounding over messages and tool schemas saves a token.
    const messages = chat(8);
    const planner = createPlanner(messages, { tools: BROWSER_TOOL_SCHEMAS });
    const request = { config: config({ contextLength: 32_000 }), estimator: 'rough' as const };
    const totals = new Map<string, number>();
    for (const strategy of [HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY]) {
      const messagesTokens = estimateMessagesTokensRough(messages, strategy.preset);
      for (const chatting of [false, true]) {
        const plan = planner.plan(strategy, chatting ? { ...request, live: live() } : request);
        expect(plan.totalTokens).toBe(plan.triggerTokens);
        expect(plan.tokensPerMessage.reduce((sum, tokens) => sum + tokens, 0)).toBe(messagesTokens);
        expect(plan.totalTokens - plan.toolsTokens).toBe(messagesTokens);
        totals.set(`${strategy.name} ${chatting ? 'chat' : 'lab'}`, plan.totalTokens);
      }
    }
    // Where the two counts differ: 2026-04's single rounding is a token under the chat's count.
    expect(totals.get('hermes-2026-04 lab')).toBe(totals.get('hermes-2026-04 chat')! - 1);
    expect(totals.get('hermes-2026-07 lab')).toBe(totals.get('hermes-2026-07 chat'));
  });

  it('draws the head a chat compaction keeps: its system prompt plus protect_first_n stored messages, under both generations', async () => {
    // The chat compacts its stored conversation with the system prompt kept on the session, so
    // 2026-04's protect_first_n = 3 protects three stored messages; its map, which draws the
    // request with the prompt first, must protect the prompt and those three (four in all), not
    // count the prompt inside the three.
    const messages = chat(20);
    const planner = createPlanner(messages, { tools: BROWSER_TOOL_SCHEMAS });
    const request = {
      config: config({ contextLength: 32_000 }),
      estimator: 'rough' as const,
      live: live(27_500),
    };
    for (const strategy of [HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY]) {
      const plan = planner.plan(strategy, request);
      expect(plan).toMatchObject({ wouldCompress: true, headEnd: 4 });
      expect([...plan.fates.slice(0, 5)]).toEqual([
        FATE.kept,
        FATE.kept,
        FATE.kept,
        FATE.kept,
        FATE.summarized,
      ]);
    }
    // What the chat's 2026-04 compaction keeps: the same three stored messages, then its summary.
    const compacted = await compactConversation(
      HERMES_2026_04_STRATEGY,
      {
        reason: 'hygiene',
        systemPrompt,
        messages: messages.slice(1),
        tools: BROWSER_TOOL_SCHEMAS,
        config: request.config,
        state: createCompressorState(),
        force: true,
        today: null,
      },
      { summarizer: createOfflineSummarizer(), now: () => 0 },
    );
    expect(compacted.skipped).toBeNull();
    expect(compacted.messages.slice(0, 3)).toEqual(messages.slice(1, 4));
    expect(compacted.messages[3]).not.toEqual(messages[4]);
    // The same messages in the lab (an imported transcript, not a chat): 2026-04 counts the
    // system message inside protect_first_n, as Hermes does when it is handed one.
    const lab = planner.plan(HERMES_2026_04_STRATEGY, {
      config: config({ contextLength: 32_000 }),
      estimator: 'rough',
    });
    expect(lab.headEnd).toBe(3);
  });

  it('says when 2026-07 waits for the provider’s count instead of compacting', () => {
    const messages = chat(20);
    const planner = createPlanner(messages, { tools: BROWSER_TOOL_SCHEMAS });
    const request = { config: config({ contextLength: 32_000 }), estimator: 'rough' as const, live: live() };
    const probe = planner.plan(HERMES_2026_07_STRATEGY, request);
    const contextLength = Math.ceil(probe.live!.preflightTokens / 0.85) - 10;
    const over = planner.plan(HERMES_2026_07_STRATEGY, { ...request, config: config({ contextLength }) });
    expect(over.triggerTokens).toBeGreaterThanOrEqual(over.trigger.thresholdTokens);
    expect(over).toMatchObject({ wouldCompress: true, reason: 'ready' });
    const threshold = over.trigger.thresholdTokens;
    const fitted = createCompressorState({
      lastRealPromptTokens: threshold - 100,
      lastRoughTokensWhenRealPromptFit: over.live!.preflightTokens - 1_000,
    });
    const waiting = planner.plan(HERMES_2026_07_STRATEGY, {
      ...request,
      config: config({ contextLength }),
      state: fitted,
    });
    expect(waiting).toMatchObject({ wouldCompress: false, reason: 'deferred' });
    expect(waiting.live?.deferred).toBe(true);
  });

  it('judges another tool’s trigger on the loop’s rough count and draws the map in it, exact counts beside', () => {
    const messages = chat(20);
    const planner = createPlanner(messages, { tools: BROWSER_TOOL_SCHEMAS });
    const exact = { encoding: 'o200k_base' as const, perMessage: messages.map(() => 5), toolsTokens: 100 };
    const request = { config: config({ contextLength: 200_000 }), estimator: 'o200k_base' as const, exact };
    const lab = planner.plan(CODEX_CLI_STRATEGY, request);
    const chatPlan = planner.plan(CODEX_CLI_STRATEGY, { ...request, live: live() });
    expect(lab).toMatchObject({ triggerTokens: 5 * messages.length + 100, triggerBasis: 'exact' });
    expect(chatPlan.triggerTokens).toBe(
      requestPressureTokens(messages, BROWSER_TOOL_SCHEMAS, CODEX_CLI_STRATEGY.preset),
    );
    expect(chatPlan.triggerBasis).toBe('rough');
    // The chat's map is drawn in the count its loop decides on; the exact count is given beside it.
    expect(chatPlan.tokenBasis).toBe('rough');
    expect(chatPlan.totalTokens).toBe(
      planner.plan(CODEX_CLI_STRATEGY, { ...request, exact: null }).totalTokens,
    );
    expect(chatPlan.counts.exact).toBe(5 * messages.length + 100);
  });
});
