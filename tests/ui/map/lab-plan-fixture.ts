import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import type { LabPlan } from '#core/lab/lab-plan.ts';
import { HERMES_2026_04_STRATEGY } from '#core/strategies/hermes.ts';
import type { Strategy } from '#core/strategies/strategy.ts';

/** A real plan of the demo transcript, as the worker computes it. */
export function demoPlan(
  overrides: Partial<typeof DEFAULT_COMPRESSION_CONFIG> = {},
  strategy: Strategy = HERMES_2026_04_STRATEGY,
): LabPlan {
  const demo = buildDemoTranscript();
  const planner = createPlanner(demo.messages, {
    tools: demo.metadata.tools ?? [],
    compactionPoints: [
      { messageIndex: 10, kind: 'claude-compact-boundary', trigger: 'auto', preTokens: 150_000 },
    ],
  });
  return planner.plan(strategy, {
    config: { ...DEFAULT_COMPRESSION_CONFIG, ...overrides },
    estimator: 'rough',
    nowMs: 0,
    revision: 7,
  });
}
