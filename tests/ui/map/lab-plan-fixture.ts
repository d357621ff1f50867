import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import type { LabPlan } from '#core/lab/lab-plan.ts';
import { DocumentPlanner } from '#worker/document-planner.ts';

/** A real plan of the demo transcript, as the worker computes it. */
export function demoPlan(overrides: Partial<typeof DEFAULT_COMPRESSION_CONFIG> = {}): LabPlan {
  const demo = buildDemoTranscript();
  const planner = new DocumentPlanner(demo.messages, {
    tools: demo.metadata.tools ?? [],
    compactionPoints: [
      { messageIndex: 10, kind: 'claude-compact-boundary', trigger: 'auto', preTokens: 150_000 },
    ],
  });
  return planner.plan(
    {
      preset: 'hermes-2026-04',
      config: { ...DEFAULT_COMPRESSION_CONFIG, ...overrides },
      estimator: 'rough',
      nowMs: 0,
    },
    null,
    7,
  );
}
