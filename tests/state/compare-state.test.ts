import { beforeAll, describe, expect, it } from 'vitest';
import { compareStrategies } from '#core/comparison/compare-strategies.ts';
import type { CompareProgress, Comparison } from '#core/comparison/comparison.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { roughMessageCounting } from '#core/simulation/message-counting.ts';
import { findStrategyProfile, STRATEGY_PROFILES as STRATEGIES } from '#core/strategies/strategy-catalog.ts';
import type { CompareReply, CompareRequest, ComputeClient } from '#io/compute/compute-client.ts';
import { AppDb } from '#io/db/app-db.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { CompareState, MAX_COMPARE_ENTRIES } from '#state/compare-state.svelte.ts';
import { ProviderState } from '#state/provider-state.svelte.ts';
import { SettingsState } from '#state/settings-state.svelte.ts';
import { TranscriptState } from '#state/transcript-state.svelte.ts';

const demo = buildDemoTranscript();
/** Tests name strategies; the state takes the values. */
const named = (name: string) => findStrategyProfile(name)!;
let comparison: Comparison;

beforeAll(async () => {
  const tools = demo.metadata.tools ?? [];
  const result = await compareStrategies({
    messages: demo.messages,
    tools,
    config: DEFAULT_COMPRESSION_CONFIG,
    entries: [{ strategy: 'codex-cli' }, { strategy: 'claude-code' }],
    counting: roughMessageCounting(demo.messages, tools),
    exact: null,
    route: {
      model: 'claude-sonnet-4-6',
      provider: 'anthropic',
      baseUrl: '',
      apiMode: 'anthropic_messages',
      cacheTtl: '5m',
      promptCaching: true,
    },
    simulate: false,
  });
  if (!result.ok) throw new Error(result.error.message);
  comparison = result.value;
});

interface PendingCompare {
  request: CompareRequest;
  onProgress: ((progress: CompareProgress) => void) | undefined;
  resolve: (reply: CompareReply) => void;
}

/** A compute client whose comparisons wait until the test answers them. */
function fakeCompute() {
  const pending: PendingCompare[] = [];
  const cancelled: string[] = [];
  const api = {
    openDocument: async (_id: string, messages: unknown[]) => ({
      perMessage: messages.map(() => 1),
      total: messages.length,
      revision: 1,
    }),
    compare: (_id: string, request: CompareRequest, onProgress?: (progress: CompareProgress) => void) =>
      new Promise<CompareReply>((resolve) => pending.push({ request, onProgress, resolve })),
    cancelCompare: (runId: string) => {
      cancelled.push(runId);
    },
  };
  const compute = {
    generation: 1,
    isRunning: true,
    run: (task: (remote: typeof api) => unknown) => Promise.resolve(task(api)),
  } as unknown as ComputeClient;
  return { compute, pending, cancelled };
}

async function setup(name: string) {
  const { compute, pending, cancelled } = fakeCompute();
  const repository = new SettingsRepository(new AppDb(name));
  const settings = new SettingsState(repository);
  await settings.setEstimator('rough');
  const provider = new ProviderState(repository);
  const transcript = new TranscriptState(compute, () => settings.strategyName);
  await transcript.load(demo, 'rough');
  const compare = new CompareState({ compute, transcript, settings, provider });
  return { compare, settings, provider, pending, cancelled };
}

describe('CompareState entries', () => {
  it('adds the first strategy not listed yet, up to six, and needs two to run', async () => {
    const { compare } = await setup('compare-state-entries');
    expect(compare.canRun).toBe(false);
    compare.addEntry();
    expect(compare.entries.map((entry) => entry.strategy)).toEqual([STRATEGIES[0]]);
    expect(compare.canRun).toBe(false);
    compare.addEntry();
    expect(compare.entries.map((entry) => entry.strategy)).toEqual(STRATEGIES.slice(0, 2));
    expect(compare.canRun).toBe(true);
    // The same strategy twice is a valid comparison (at two settings).
    compare.addEntry(named('hermes-2026-04'));
    for (let count = compare.entries.length; count < MAX_COMPARE_ENTRIES; count++) compare.addEntry();
    expect(compare.entries).toHaveLength(MAX_COMPARE_ENTRIES);
    expect(compare.canAdd).toBe(false);
    compare.addEntry();
    expect(compare.entries).toHaveLength(MAX_COMPARE_ENTRIES);
    compare.removeEntry(compare.entries[0]!.id);
    expect(compare.entries).toHaveLength(MAX_COMPARE_ENTRIES - 1);
  });

  it("starts an empty list with the lab's strategy and the first other one, and only an empty one", async () => {
    const { compare, settings } = await setup('compare-state-starter');
    expect(compare.starterPair).toEqual([named('hermes-2026-04'), named('hermes-2026-07')]);
    await settings.setStrategy('codex-cli');
    expect(compare.starterPair).toEqual([named('codex-cli'), STRATEGIES[0]]);
    compare.addStarterPair();
    expect(compare.entries.map((entry) => entry.strategy)).toEqual([named('codex-cli'), STRATEGIES[0]]);
    expect(compare.canRun).toBe(true);
    compare.addStarterPair();
    expect(compare.entries).toHaveLength(2);
  });

  it('keeps overrides per entry and drops them when the strategy changes', async () => {
    const { compare } = await setup('compare-state-overrides');
    compare.addEntry(named('codex-cli'));
    const id = compare.entries[0]!.id;
    compare.setEntryOption(id, 'codex.triggerPercent', 80);
    compare.setEntryOption(id, 'codex.userMessageTokens', 5000);
    compare.setEntryOption(id, 'codex.userMessageTokens', null);
    expect(compare.entries[0]!.strategyOptions).toEqual({ 'codex.triggerPercent': 80 });
    compare.updateEntry(id, { strategy: named('hermes-2026-07'), thresholdPercent: 0.6 });
    expect(compare.entries[0]).toMatchObject({
      strategy: named('hermes-2026-07'),
      strategyOptions: {},
      thresholdPercent: null,
    });
    compare.updateEntry(id, { thresholdPercent: 0.6 });
    expect(compare.entries[0]!.thresholdPercent).toBe(0.6);
  });
});

describe('CompareState runs', () => {
  it('sends the entries, settings and route to the worker and keeps the answer', async () => {
    const { compare, provider, pending } = await setup('compare-state-run');
    await provider.setContextWindow(128_000);
    compare.addEntry(named('codex-cli'));
    compare.addEntry(named('claude-code'));
    compare.updateEntry(compare.entries[1]!.id, { label: 'Claude, early' });
    compare.setEntryOption(compare.entries[1]!.id, 'claude-code.pctOverride', 60);
    const running = compare.run();
    await expect.poll(() => pending.length).toBe(1);
    expect(compare.running).toBe(true);
    const { request, onProgress, resolve } = pending[0]!;
    expect(request.entries).toEqual([
      { strategy: 'codex-cli' },
      { strategy: 'claude-code', label: 'Claude, early', strategyOptions: { 'claude-code.pctOverride': 60 } },
    ]);
    expect(request.config.contextLength).toBe(128_000);
    expect(request.estimator).toBe('rough');
    expect(request.route).toMatchObject({
      provider: 'anthropic',
      apiMode: 'anthropic_messages',
      promptCaching: true,
    });
    // The demo was recorded with another model than the provider's: it is priced as it ran, and
    // the tab says so with the model the request carries.
    expect(demo.metadata.model).not.toBe(provider.config.model);
    expect(request.route.model).toBe(demo.metadata.model);
    expect(compare.pricing).toEqual({ model: demo.metadata.model, recorded: true });
    onProgress?.({ done: 5, total: 10, label: 'Codex CLI' });
    expect(compare.progress).toEqual({ done: 5, total: 10, label: 'Codex CLI' });
    resolve({ ok: true, value: comparison });
    await running;
    expect(compare.status).toBe('ready');
    expect(compare.comparison).toBe(comparison);
    // The first two rows are diffed from the start; a third choice replaces the oldest.
    expect(compare.diffRows).toEqual([0, 1]);
    expect(compare.diff?.first.strategy).toBe('codex-cli');
    compare.toggleDiff(1);
    expect(compare.diffRows).toEqual([0]);
    expect(compare.diff).toBeNull();
    compare.toggleRow(1);
    expect(compare.openRow).toBe(1);
    compare.toggleRow(1);
    expect(compare.openRow).toBeNull();

    expect(compare.stale).toBe(false);
    await provider.setContextWindow(200_000);
    expect(compare.stale).toBe(true);
  });

  it('cancels in the worker and ignores the late answer', async () => {
    const { compare, pending, cancelled } = await setup('compare-state-cancel');
    compare.addEntry(named('codex-cli'));
    compare.addEntry(named('claude-code'));
    const running = compare.run();
    await expect.poll(() => pending.length).toBe(1);
    compare.cancel();
    expect(cancelled).toEqual([pending[0]!.request.runId]);
    expect(compare.status).toBe('cancelled');
    pending[0]!.resolve({ ok: true, value: comparison });
    await running;
    expect(compare.comparison).toBeNull();
    expect(compare.status).toBe('cancelled');
  });

  it('shows a failure as an error', async () => {
    const { compare, pending } = await setup('compare-state-error');
    compare.addEntry(named('codex-cli'));
    compare.addEntry(named('opencode'));
    const running = compare.run();
    await expect.poll(() => pending.length).toBe(1);
    pending[0]!.resolve({ ok: false, error: { type: 'Failed', message: 'out of memory' } });
    await running;
    expect(compare.status).toBe('error');
    expect(compare.error).toBe('out of memory');
  });

  it('exports Markdown and JSON named after the transcript', async () => {
    const { compare, pending } = await setup('compare-state-export');
    expect(await compare.exportFile('json')).toBeNull();
    compare.addEntry(named('codex-cli'));
    compare.addEntry(named('claude-code'));
    const running = compare.run();
    await expect.poll(() => pending.length).toBe(1);
    pending[0]!.resolve({ ok: true, value: comparison });
    await running;
    const markdown = await compare.exportFile('markdown');
    expect(markdown?.fileName).toBe('compare-demo-fastapi-project-with-tests.md');
    expect(markdown?.mimeType).toBe('text/markdown');
    expect(await markdown?.blob.text()).toContain('# Strategy comparison: Demo: FastAPI project with tests');
    const json = await compare.exportFile('json');
    expect(json?.fileName).toBe('compare-demo-fastapi-project-with-tests.json');
    const report = JSON.parse(await json!.blob.text()) as { strategies: { name: string }[] };
    expect(report.strategies.map((entry) => entry.name)).toEqual(['codex-cli', 'claude-code']);
    compare.reset();
    expect(compare.comparison).toBeNull();
    expect(compare.entries).toHaveLength(2);
  });
});
