/**
 * The invariants every strategy must keep, checked with fast-check on random agent transcripts
 * (shrunk to the smallest failing one): no orphan tool pairs, the latest user ask kept or quoted,
 * nothing removed without a summary or a marker in its place, pinned messages verbatim, plan
 * and compaction agreeing on what happens to each message, and a compaction never growing the
 * context. Earlier failures are replayed first as concrete examples; a new failure prints its
 * shrunk transcript with the `seed` and `path` that replay it (`fc.assert(property, { seed, path })`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import {
  LEGACY_SUMMARY_PREFIX,
  SUMMARY_PREFIX_2026_04,
  SUMMARY_PREFIX_2026_07,
} from '#core/compression/markers.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { findMissingPinnedMessages } from '#core/fidelity/find-missing-pinned-messages.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import { compactConversation } from '#core/strategies/compact-conversation.ts';
import { FATE } from '#core/strategies/strategy.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import { estimateMessagesTokensRough } from '#core/tokens/estimate-messages-tokens-rough.ts';
import { arbitraryTranscript, type ArbitraryTranscript } from '#tests/helpers/arbitrary-transcript.ts';
import { readPropertyRegression } from '#tests/helpers/read-property-regression.ts';
import { latestAskSurvives, toolPairProblems } from '#tests/helpers/strategy-output-checks.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 30);

interface Regression {
  readonly contextLength: number;
  readonly pinSeed: number;
  readonly transcript: ArbitraryTranscript;
}
/**
 * Failures found so far, replayed first for every strategy as concrete inputs (fast-check
 * `examples`): a pin on the tail message Hermes 2026-07 merged its summary into, also in a
 * resumed session; a pinned tool call next to Cline's truncation notice; a pinned tool result
 * whose call Hermes 2026-04's progress floor summarised.
 */
const REGRESSIONS: readonly Regression[] = [
  'strategy-invariants/pin-on-merged-tail.json',
  'strategy-invariants/pin-on-merged-tail-resumed.json',
  'strategy-invariants/pinned-call-beside-truncation-notice.json',
  'strategy-invariants/pinned-result-of-summarised-call.json',
].map((path) => readPropertyRegression<Regression>(path));
/** Sessions resumed from a summary of either Hermes generation or the legacy one. */
const RESUMED_FROM = [SUMMARY_PREFIX_2026_07, SUMMARY_PREFIX_2026_04, LEGACY_SUMMARY_PREFIX];
const windows = fc.constantFrom(16_000, 64_000, 200_000);

describe.each(STRATEGIES.map((strategy) => [strategy.name, strategy] as const))('%s', (_name, strategy) => {
  it('keeps tool pairs whole, the latest ask, pins, and puts a summary or marker where it removed something', async () => {
    const property = fc.asyncProperty(
      arbitraryTranscript({ resumedFrom: RESUMED_FROM }),
      windows,
      fc.nat(999),
      async (transcript, contextLength, pinSeed) => {
        const { messages } = transcript;
        // Any message but the system prompt, which a strategy may annotate (Hermes' compaction note).
        const firstPinnable = messages[0]?.role === 'system' ? 1 : 0;
        const pinned = new Set([firstPinnable + (pinSeed % (messages.length - firstPinnable))]);
        const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength };
        const planner = createPlanner(messages);
        const plan = planner.plan(strategy, { config, estimator: 'rough' });
        const outcome = await compactConversation(
          strategy,
          {
            reason: 'manual',
            systemPrompt: '',
            messages,
            tools: [],
            config,
            state: INITIAL_COMPRESSOR_STATE,
            prepared: planner.prepared(strategy),
            force: true,
            pinned,
          },
          { summarizer: createOfflineSummarizer(), now: () => 0 },
        );
        const output = outcome.messages;
        expect(toolPairProblems(output)).toEqual([]);
        const pin = [...pinned][0]!;
        expect(latestAskSurvives(messages, output)).toBe(true);
        expect(findMissingPinnedMessages(messages, pinned, output), `pin #${pin}`).toEqual([]);
        if (outcome.skipped !== null) {
          expect(output).toEqual(messages);
          return;
        }
        // Nothing removed without a summary or a marker in its place.
        const removed = [...outcome.fates].some((fate) => fate === FATE.summarized || fate === FATE.dropped);
        const inserted = output.some((message) => !messages.includes(message));
        if (removed) expect(inserted).toBe(true);
        if ([...outcome.fates].includes(FATE.summarized))
          expect(outcome.compaction.summaries.length).toBeGreaterThan(0);
        // The plan said what the compaction did, message by message (pins aside).
        for (let index = 0; index < messages.length; index++) {
          if (pinned.has(index)) continue;
          expect(outcome.compaction.fates[index], `#${index}`).toBe(plan.fates[index]);
        }
        expect(estimateMessagesTokensRough(output, strategy.preset)).toBeLessThan(
          estimateMessagesTokensRough(messages, strategy.preset),
        );
      },
    );
    await fc.assert(property, {
      numRuns: RUNS,
      // Stop shrinking in time to report the smallest case found rather than a test timeout.
      interruptAfterTimeLimit: 90_000,
      // PROPERTY_SEED and PROPERTY_PATH replay a reported failure exactly.
      ...(process.env.PROPERTY_SEED
        ? { seed: Number(process.env.PROPERTY_SEED), path: process.env.PROPERTY_PATH ?? '' }
        : {}),
      examples: REGRESSIONS.map(({ transcript, contextLength, pinSeed }) => [
        transcript,
        contextLength,
        pinSeed,
      ]),
    });
  }, 120_000);
});
