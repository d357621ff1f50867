import { describe, expect, it, vi } from 'vitest';
import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import { contentTextForContains } from '#core/compression/content-text.ts';
import type { HermesDocument } from '#core/compression/hermes-document.ts';
import { SUMMARY_PREFIX_2026_07 } from '#core/compression/markers.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { findMissingPinnedMessages } from '#core/fidelity/find-missing-pinned-messages.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import { createMessageCaches } from '#core/lab/message-caches.ts';
import type { Preset } from '#core/presets/preset.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import { HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY } from '#core/strategies/hermes.ts';
import { preparedCaches } from '#core/strategies/shared-message-caches.ts';
import { FATE, type Strategy } from '#core/strategies/strategy.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import type { RoughMessageSize, RoughSizeCache } from '#core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '#core/transcript/message.ts';
import { assistant, calls, result, user } from '#tests/helpers/strategy-fixtures.ts';
import { latestAskSurvives, toolPairProblems } from '#tests/helpers/strategy-output-checks.ts';

/** A size cache that remembers which messages were looked up and which were measured into it. */
class WatchedSizeCache extends WeakMap<Message, RoughMessageSize> {
  readonly looked = new Set<Message>();
  readonly measured: Message[] = [];
  override get(message: Message): RoughMessageSize | undefined {
    this.looked.add(message);
    return super.get(message);
  }
  override set(message: Message, size: RoughMessageSize): this {
    this.measured.push(message);
    return super.set(message, size);
  }
}

const transcript = generateAgentTranscript({ messageCount: 120, seed: 4 });
const { messages } = transcript;
const tools = transcript.metadata.tools ?? [];
const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 };

describe('compactConversation after a plan', () => {
  it.each(STRATEGIES.map((strategy) => [strategy.name, strategy] as const))(
    '%s measures no message the planner measured, and none twice',
    async (_name, strategy) => {
      const watched = new WatchedSizeCache();
      const caches = createMessageCaches(new Map<Preset, RoughSizeCache>([[strategy.preset, watched]]));
      const planner = createPlanner(messages, { tools, caches });
      planner.plan(strategy, { config, estimator: 'rough' });
      const measuredByPlan = watched.measured.length;
      watched.looked.clear();

      const outcome = await compactConversation(
        strategy,
        {
          reason: 'manual',
          systemPrompt: '',
          messages,
          tools,
          config,
          state: INITIAL_COMPRESSOR_STATE,
          prepared: planner.prepared(strategy),
          force: true,
        },
        { summarizer: createOfflineSummarizer(), now: () => 0 },
      );

      expect(outcome.skipped).toBeNull();
      // The compaction read the planner's sizes of the transcript …
      expect(messages.every((message) => watched.looked.has(message))).toBe(true);
      // … measured none of its messages again, and only new messages (summaries, pruned copies) at most once.
      const measuredNow = watched.measured.slice(measuredByPlan);
      expect(measuredNow.filter((message) => messages.includes(message))).toEqual([]);
      expect(new Set(watched.measured).size).toBe(watched.measured.length);
    },
  );

  it.each(STRATEGIES.map((strategy) => [strategy.name, strategy] as const))(
    '%s keeps the summariser texts for the next compaction, which comes out the same',
    async (_name, strategy) => {
      const planner = createPlanner(messages, { tools });
      planner.plan(strategy, { config, estimator: 'rough' });
      const prepared = planner.prepared(strategy);
      const compact = () =>
        compactConversation(
          strategy,
          {
            reason: 'manual',
            systemPrompt: '',
            messages,
            tools,
            config,
            state: INITIAL_COMPRESSOR_STATE,
            prepared,
            force: true,
          },
          { summarizer: createOfflineSummarizer(), now: () => 0 },
        );
      const first = await compact();
      const texts = preparedCaches(prepared).summaryTextCache!;
      const summarised = first.compaction.summaries.flatMap((summary) =>
        messages.slice(summary.span.start, summary.span.end),
      );
      // Hermes serialises the pruned copies of old tool results; every other message is kept as is.
      const serialised = summarised.filter((message) => texts.has(message));
      if (first.compaction.summaries.some((summary) => summary.prompt !== null))
        expect(serialised.length).toBeGreaterThan(summarised.length / 3);
      expect(await compact()).toEqual(first);
    },
  );

  it.each(STRATEGIES.map((strategy) => [strategy.name, strategy] as const))(
    "%s counts the list as it would unplanned, from the planner's sizes or its own (hygiene's list)",
    async (_name, strategy) => {
      const compact = (reason: 'manual' | 'hygiene', prepared?: unknown) =>
        compactConversation(
          strategy,
          {
            reason,
            systemPrompt: 'You are a careful agent.',
            messages,
            tools,
            config,
            state: INITIAL_COMPRESSOR_STATE,
            ...(prepared !== undefined ? { prepared } : {}),
            force: true,
          },
          { summarizer: createOfflineSummarizer(), now: () => 0 },
        );
      const counts = (outcome: Awaited<ReturnType<typeof compact>>) => [
        outcome.tokensBefore,
        outcome.requestTokensBefore,
        outcome.tokensAfter,
        outcome.requestTokensAfter,
      ];
      for (const reason of ['manual', 'hygiene'] as const) {
        const planner = createPlanner(messages, { tools });
        planner.plan(strategy, { config, estimator: 'rough' });
        expect(counts(await compact(reason, planner.prepared(strategy)))).toEqual(
          counts(await compact(reason)),
        );
      }
    },
  );

  it("hands Hermes' compress() the planner's document, not a new one", async () => {
    const planner = createPlanner(messages, { tools });
    planner.plan(HERMES_2026_04_STRATEGY, { config, estimator: 'rough' });
    const document = planner.prepared(HERMES_2026_04_STRATEGY) as HermesDocument;
    const pruning = vi.spyOn(document, 'pruning');
    await compactConversation(
      HERMES_2026_04_STRATEGY,
      {
        reason: 'manual',
        systemPrompt: '',
        messages,
        tools,
        config,
        state: INITIAL_COMPRESSOR_STATE,
        prepared: document,
        force: true,
      },
      { summarizer: createOfflineSummarizer(), now: () => 0 },
    );
    expect(pruning).toHaveBeenCalled();
  });
});

/** Compacts by hand at 16K (offline summariser, forced), with these messages pinned. */
const compactPinned = (strategy: Strategy, input: Message[], pins: readonly number[]) =>
  compactConversation(
    strategy,
    {
      reason: 'manual',
      systemPrompt: '',
      messages: input,
      tools: [],
      config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 16_000 },
      state: INITIAL_COMPRESSOR_STATE,
      force: true,
      pinned: new Set(pins),
    },
    { summarizer: createOfflineSummarizer(), now: () => 0 },
  );

describe('pinned messages survive verbatim', () => {
  describe('a pinned tool result whose call Hermes 2026-04 summarised', () => {
    const bulky = (id: string) =>
      result(id, `${'invoice ledger parser cache migration schema retry token billing '.repeat(30)}${id}`);
    const round = (ids: readonly string[]) =>
      calls(
        ids.map((id) => [id, 'terminal', { command: 'pytest tests/test_0.py' }] as const),
        'Checking.',
      );
    // Everything after the head (#0–#4) fits the tail budget, so the walk reaches the head and
    // the progress floor starts the tail at #6: the call #5 is summarised, its results #6–#8 are
    // in the tail, and a result without its call is removed from the request.
    const input: Message[] = [
      user('Turn 0: please fix the invoice bug.'),
      round(['c0', 'c1', 'c2']),
      bulky('c0'),
      bulky('c1'),
      bulky('c2'),
      round(['c3', 'c4', 'c5']),
      bulky('c3'),
      bulky('c4'),
      bulky('c5'),
      assistant("I'll use the invoice fix."),
      user('Turn 1: please fix the invoice bug.'),
      assistant("I'll use the invoice fix."),
    ];

    it('without a pin, summarises the call and drops its results (Hermes as it is)', async () => {
      const outcome = await compactPinned(HERMES_2026_04_STRATEGY, input, []);
      expect(outcome.skipped).toBeNull();
      expect(
        [...outcome.fates].map((fate, index) => [index, fate]).filter(([, fate]) => fate !== FATE.kept),
      ).toEqual([[5, FATE.summarized]]);
      expect(
        outcome.messages.some((message) => message.role === 'tool' && message.tool_call_id === 'c4'),
      ).toBe(false);
    });

    it('keeps it with its call, and says so', async () => {
      const outcome = await compactPinned(HERMES_2026_04_STRATEGY, input, [7]);
      expect(findMissingPinnedMessages(input, new Set([7]), outcome.messages)).toEqual([]);
      // The call comes back with all its results, in order, so the request stays valid.
      const call = outcome.messages.indexOf(input[5]!);
      expect(call).toBeGreaterThanOrEqual(0);
      expect(outcome.messages.slice(call, call + 4)).toEqual(input.slice(5, 9));
      expect(toolPairProblems(outcome.messages)).toEqual([]);
      expect(outcome.notes[0]).toBe(
        'Pinned message #7 kept verbatim with its tool call #5: this strategy would have summarised the call, and a result cannot be sent without its call.',
      );
      // The call was all the summary stood for: kept, the compaction would only add the summary.
      expect(outcome.skipped).toBe('would-grow');
      expect(outcome.messages).toEqual(input);
      expect(outcome.notes[1]).toMatch(
        /^Refused: with the pinned messages kept, nothing is left summarised or dropped, and the summary would only grow the context from [\d,]+ to [\d,]+ tokens\.$/,
      );
    });

    it('puts the group back after the summary, in place of results a strategy left without their call', async () => {
      // A strategy that summarises #1–#5, a tool call among them, but leaves the call's result
      // #6 in its output, as the final repair would remove it.
      const own: Message[] = [
        user('Fix the invoice total.'),
        calls([['a1', 'read_file', { path: 'src/invoice.py' }]]),
        result('a1', 'def total(lines): return sum(line.amount for line in lines)'),
        assistant('The total ignores discounts.'),
        user('Then apply the discount in total().'),
        calls([['a2', 'terminal', { command: 'pytest tests/test_invoice.py' }]]),
        result('a2', 'FAILED tests/test_invoice.py::test_discount - assert 90 == 100'),
        assistant('The discount test fails as expected; fixing total() next.'),
      ];
      const summary: Message = {
        role: 'assistant',
        content: 'Summary: read invoice.py; the discount test fails.',
      };
      const fates = new Uint8Array(own.length).fill(FATE.summarized, 1, 6);
      const strategy: Strategy = {
        ...HERMES_2026_07_STRATEGY,
        compact: () =>
          Promise.resolve({
            messages: [own[0]!, summary, own[6]!, own[7]!],
            state: INITIAL_COMPRESSOR_STATE,
            skipped: null,
            notes: [],
            fates,
            pruned: [],
            summaries: [
              {
                body: 'read invoice.py; the discount test fails.',
                outputIndex: 1,
                span: { start: 1, end: 6, kind: 'middle' },
                prompt: null,
                fallback: false,
              },
            ],
            reattached: [],
            tokensBefore: 0,
            tokensAfter: 0,
            summarizerCalls: 0,
            warning: null,
            hermes: null,
          }),
      };
      const outcome = await compactPinned(strategy, own, [6]);
      expect(outcome.skipped).toBeNull();
      expect(outcome.messages).toEqual([own[0], summary, own[5], own[6], own[7]]);
      expect([...outcome.fates]).toEqual([
        FATE.kept,
        FATE.summarized,
        FATE.summarized,
        FATE.summarized,
        FATE.summarized,
        FATE.kept,
        FATE.kept,
        FATE.kept,
      ]);
      expect(outcome.notes).toContain(
        'Pinned message #6 kept verbatim with its tool call #5: this strategy would have summarised the call, and a result cannot be sent without its call.',
      );
    });
  });

  describe('a pinned message Hermes 2026-07 merged its summary into, in a resumed session', () => {
    // #0 is an earlier compaction's summary. The head (#0–#2) ends on a user turn and the tail
    // (#6–#7) starts with an assistant call, so no role fits a summary between them and 2026-07
    // merges the new summary (of #3–#5) into #6.
    const input: Message[] = [
      user(`${SUMMARY_PREFIX_2026_07} Earlier we migrated the billing schema; tests pass.`),
      user('Turn 0: please fix the invoice bug in src/module_0.py and run the tests.'),
      user('Turn 1: please fix the invoice bug in src/module_0.py and run the tests.'),
      user('Turn 2: please fix the invoice bug in src/module_0.py and run the tests.'),
      calls([['call_0', 'terminal', { command: 'pytest tests/test_0.py' }]], ''),
      result('call_0', 'FAILED tests/test_invoice.py::test_total - AssertionError\n'.repeat(60)),
      calls([['call_1', 'terminal', { command: 'pytest tests/test_0.py' }]]),
      result('call_1', 'passed'),
    ];

    it('keeps the message verbatim and the new summary standing before it', async () => {
      const outcome = await compactPinned(HERMES_2026_07_STRATEGY, input, [6]);
      expect(outcome.skipped).toBeNull();
      const body = outcome.compaction.summaries[0]!.body;
      expect(outcome.messages).toHaveLength(6);
      expect(outcome.messages.slice(0, 3)).toEqual(input.slice(0, 3));
      expect(outcome.messages[3]!.role).toBe('user');
      expect(contentTextForContains(outcome.messages[3]!.content)).toContain(body);
      expect(outcome.messages.slice(4)).toEqual(input.slice(6));
      // What the summary stands for survives in it, the latest ask (#3) included.
      expect(latestAskSurvives(input, outcome.messages)).toBe(true);
      expect(outcome.notes).toContain(
        'Pinned message #6 kept whole: the summary stands before it instead of inside it.',
      );
    });
  });
});

describe('a pinned older ask does not stand in for the newest one', () => {
  // Claude Code keeps nothing but its summary, so the real-user guarantee puts the newest ask
  // back. A pinned older ask put back as a pin is not the user's current turn.
  const chat: Message[] = [
    { role: 'system', content: 'You are a coding agent.' },
    user('First: add a --verbose flag to the CLI. '.repeat(40)),
    assistant('Added the flag and its help text. '.repeat(40)),
    user('Second: write a test for the flag. '.repeat(40)),
    assistant('The test is in tests/test_cli.py. '.repeat(40)),
    user('Now rename the flag to --debug everywhere.'),
  ];
  const claudeCode = STRATEGIES.find((strategy) => strategy.label === 'Claude Code')!;

  it('keeps the pinned ask verbatim and the newest ask as the last user turn', async () => {
    const result = await compactPinned(claudeCode, chat, [1]);
    expect(result.skipped).toBeNull();
    expect(result.messages).toContain(chat[1]);
    // The newest ask once, verbatim (the summary may quote it, inside its own text).
    expect(result.messages.filter((message) => message.content === chat[5]!.content)).toHaveLength(1);
    expect(result.messages.at(-1)!.content).toBe(chat[5]!.content);
  });

  it('counts the newest ask itself when it is the pin', async () => {
    const result = await compactPinned(claudeCode, chat, [5]);
    expect(result.messages.filter((message) => message === chat[5])).toHaveLength(1);
    expect(
      result.messages.filter((message) => contentTextForContains(message.content) === chat[5]!.content),
    ).toHaveLength(1);
  });
});
