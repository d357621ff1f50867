import { describe, expect, it } from 'vitest';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { packPrunedOutputs, type PackedLabPlan } from '#core/lab/packed-pruned-outputs.ts';
import type { ComputeClient, LabPlanOptions } from '#io/compute/compute-client.ts';
import { AppDb } from '#io/db/app-db.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { PlanState } from '#state/plan-state.svelte.ts';
import { ProviderState } from '#state/provider-state.svelte.ts';
import { SettingsState } from '#state/settings-state.svelte.ts';
import { TranscriptState } from '#state/transcript-state.svelte.ts';

interface PendingPlan {
  options: LabPlanOptions;
  resolve: (plan: PackedLabPlan) => void;
}

/** A compute client whose plan requests wait until the test answers them. */
function fakeCompute() {
  const pending: PendingPlan[] = [];
  const api = {
    openDocument: async (_id: string, messages: unknown[]) => ({
      perMessage: messages.map(() => 1),
      total: messages.length,
      revision: 1,
    }),
    plan: (_id: string, options: LabPlanOptions) =>
      new Promise((resolve) =>
        pending.push({ options, resolve: (plan) => resolve({ ok: true, value: plan }) }),
      ),
  };
  const compute = {
    generation: 1,
    isRunning: true,
    run: (task: (remote: typeof api) => unknown) => task(api),
  } as unknown as ComputeClient;
  return { compute, pending };
}

/** A plan as the worker sends it (pruned outputs packed), with only what this test reads. */
const planFor = (options: LabPlanOptions): PackedLabPlan =>
  ({
    windowTokens: options.config.contextLength,
    revision: 1,
    prunedPacked: packPrunedOutputs([]),
  }) as unknown as PackedLabPlan;

describe('PlanState', () => {
  it('coalesces changes made while a plan is in the worker and drops the superseded result', async () => {
    const { compute, pending } = fakeCompute();
    const repository = new SettingsRepository(new AppDb('plan-state-test'));
    const settings = new SettingsState(repository);
    const transcript = new TranscriptState(compute, () => settings.strategyName);
    const provider = new ProviderState(repository);
    const plan = new PlanState({ compute, transcript, settings, provider });
    await transcript.load(buildDemoTranscript(), 'rough');

    plan.refresh();
    await Promise.resolve();
    await Promise.resolve();
    expect(pending).toHaveLength(1);
    // Three changes while the first request is in the worker.
    await provider.setContextWindow(300_000);
    plan.refresh();
    await provider.setContextWindow(400_000);
    plan.refresh();
    await provider.setContextWindow(500_000);
    plan.refresh();
    expect(pending).toHaveLength(1);

    pending[0]!.resolve(planFor(pending[0]!.options));
    await expect.poll(() => pending.length).toBe(2);
    // The superseded answer was not drawn; the one follow-up carries the newest settings.
    expect(plan.plan).toBeNull();
    expect(pending[1]!.options.config.contextLength).toBe(500_000);
    pending[1]!.resolve(planFor(pending[1]!.options));
    await expect.poll(() => plan.plan?.windowTokens).toBe(500_000);
    expect(plan.status).toBe('ready');
    expect(plan.latencyMs).not.toBeNull();
    expect(pending).toHaveLength(2);
  });
});
