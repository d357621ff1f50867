import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { planCompression } from '#core/compression/plan-compression.ts';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { ALL_PRESETS } from '#core/presets/preset.ts';
import type { Transcript } from '#core/transcript/transcript.ts';
import { DocumentPlanner } from '#worker/document-planner.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

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

const transcripts: [string, Transcript][] = [
  ['demo', buildDemoTranscript()],
  ['generated 800', generateAgentTranscript({ messageCount: 800, seed: 7 })],
  [
    'generated 800 with a call 2026-04 raises on',
    withRaisingCall(generateAgentTranscript({ messageCount: 800, seed: 7 })),
  ],
];

const settings: Partial<CompressionConfig>[] = [
  {},
  { contextLength: 64_000, thresholdPercent: 0.5 },
  { contextLength: 1_000_000, thresholdPercent: 0.8, targetRatio: 0.5 },
  { protectLastN: 5, protectFirstN: 0, targetRatio: 0.1 },
  { contextLength: 128_000, protectLastN: 40, protectFirstN: 6 },
];

describe('DocumentPlanner', () => {
  for (const [name, transcript] of transcripts) {
    for (const preset of ALL_PRESETS) {
      it(`matches core planCompression on the ${name} transcript (${preset.name})`, () => {
        const planner = new DocumentPlanner(transcript.messages, { tools: transcript.metadata.tools ?? [] });
        for (const overrides of settings) {
          const config = { ...DEFAULT_COMPRESSION_CONFIG, ...overrides };
          const state = createCompressorState();
          const plan = planner.plan(
            { preset: preset.name, config, state, estimator: 'rough', nowMs: 0 },
            null,
            1,
          );
          const reference = planCompression(transcript.messages, {
            config,
            preset,
            state,
            currentTokens: plan.triggerTokens,
            nowMs: 0,
          });
          expect(plan.headEnd).toBe(reference.boundaries?.headEnd);
          expect(plan.tailStart).toBe(reference.boundaries?.tailStart);
          expect(plan.tailCutSteps).toEqual(reference.boundaries?.steps);
          expect(plan.pruneBoundary).toBe(reference.pruneBoundary);
          expect(plan.prunedCount).toBe(reference.prunedCount);
          expect(plan.pruned.map((item) => [item.index, item.kind])).toEqual(
            reference.pruned.map((item) => [item.index, item.kind]),
          );
          expect(plan.pruned.filter((item) => item.kind !== 'arguments')).toEqual(
            reference.pruned.filter((item) => item.kind !== 'arguments'),
          );
          expect(plan.reason).toBe(reference.reason);
          expect(plan.raised?.exception ?? null).toBe(reference.raised?.exception ?? null);
          expect(plan.wouldCompress).toBe(reference.wouldCompress);
          expect(plan.thresholds).toEqual(reference.thresholds);
        }
      });
    }
  }

  it('plans the raising session as hermes-raised under 2026-04 and ready under 2026-07', () => {
    const transcript = transcripts[2]![1];
    const planner = new DocumentPlanner(transcript.messages, { tools: transcript.metadata.tools ?? [] });
    const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 };
    const april = planner.plan({ preset: 'hermes-2026-04', config, estimator: 'rough', nowMs: 0 }, null, 1);
    expect(april.reason).toBe('hermes-raised');
    expect(april.raised).toEqual({
      type: 'HermesRaised',
      function: '_summarize_tool_result',
      exception: "TypeError: object of type 'bool' has no len()",
    });
    const july = planner.plan({ preset: 'hermes-2026-07', config, estimator: 'rough', nowMs: 0 }, null, 1);
    expect(july.reason).toBe('ready');
    expect(july.raised).toBeNull();
  });

  it('partitions the messages into system, tools, head, middle and tail', () => {
    const transcript = transcripts[1]![1];
    const planner = new DocumentPlanner(transcript.messages, { tools: transcript.metadata.tools ?? [] });
    const plan = planner.plan(
      { preset: 'hermes-2026-07', config: DEFAULT_COMPRESSION_CONFIG, estimator: 'rough' },
      null,
      3,
    );
    expect(plan.regions.map((region) => region.name)).toEqual(['system', 'tools', 'head', 'middle', 'tail']);
    const [system, tools, head, middle, tail] = plan.regions;
    expect([system!.start, system!.end]).toEqual([0, 1]);
    expect([tools!.start, tools!.end]).toEqual([1, 1]);
    expect(tools!.tokens).toBeGreaterThan(0);
    expect(head!.start).toBe(1);
    expect(head!.end).toBe(middle!.start);
    expect(middle!.end).toBe(tail!.start);
    expect(tail!.end).toBe(transcript.messages.length);
    const messageTokens = plan.regions.reduce(
      (sum, region) => sum + (region.name === 'tools' ? 0 : region.tokens),
      0,
    );
    expect(messageTokens + tools!.tokens).toBe(plan.totalTokens);
    expect(plan.revision).toBe(3);
    // Hatching lies inside the transcript on the axis and never claims more than was pruned.
    for (const span of plan.prunedSpans) {
      expect(span.start).toBeGreaterThanOrEqual(0);
      expect(span.end).toBeLessThanOrEqual(plan.totalTokens);
    }
  });

  it('uses exact counts as the basis when they are given', () => {
    const transcript = transcripts[0]![1];
    const planner = new DocumentPlanner(transcript.messages, { tools: transcript.metadata.tools ?? [] });
    const perMessage = transcript.messages.map((_, index) => 100 + index);
    const plan = planner.plan(
      { preset: 'hermes-2026-04', config: DEFAULT_COMPRESSION_CONFIG, estimator: 'o200k_base' },
      { encoding: 'o200k_base', perMessage, toolsTokens: 500 },
      1,
    );
    const sum = perMessage.reduce((total, value) => total + value, 0);
    expect(plan.tokenBasis).toBe('o200k_base');
    expect(plan.totalTokens).toBe(sum + 500);
    expect(plan.triggerTokens).toBe(sum + 500);
    expect([...plan.tokensPerMessage]).toEqual(perMessage);
  });

  it('answers a settings change on 10,000 messages from its caches', () => {
    const transcript = generateAgentTranscript({ messageCount: 10_000, seed: 3 });
    const planner = new DocumentPlanner(transcript.messages, { tools: transcript.metadata.tools ?? [] });
    const first = performance.now();
    planner.plan(
      { preset: 'hermes-2026-04', config: DEFAULT_COMPRESSION_CONFIG, estimator: 'rough' },
      null,
      1,
    );
    const firstMs = performance.now() - first;
    const timings: number[] = [];
    for (let step = 1; step <= 5; step++) {
      const started = performance.now();
      const plan = planner.plan(
        {
          preset: 'hermes-2026-04',
          config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 200_000 + step * 10_000 },
          estimator: 'rough',
        },
        null,
        1,
      );
      timings.push(performance.now() - started);
      expect(plan.regions[4]!.end).toBe(10_000);
    }
    timings.sort((left, right) => left - right);
    console.log(`planner: first plan ${firstMs.toFixed(0)} ms, cached median ${timings[2]!.toFixed(1)} ms`);
  });
});
