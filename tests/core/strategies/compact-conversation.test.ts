import { describe, expect, it, vi } from 'vitest';
import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import type { HermesDocument } from '#core/compression/hermes-document.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import type { Preset } from '#core/presets/preset.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import { HERMES_2026_04_STRATEGY } from '#core/strategies/hermes.ts';
import { preparedCaches } from '#core/strategies/shared-message-caches.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import type { RoughMessageSize, RoughSizeCache } from '#core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '#core/transcript/message.ts';

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
      const caches = new Map<Preset, RoughSizeCache>();
      const watched = new WatchedSizeCache();
      caches.set(strategy.preset, watched);
      const planner = createPlanner(messages, { tools, sizeCaches: caches });
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
