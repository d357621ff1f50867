import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import type { SummaryRequest } from '#core/compression/summarizer.ts';
import { computeApi } from '#worker/compute-api.ts';

const demo = buildDemoTranscript();
const context = { tools: demo.metadata.tools ?? [], compactionPoints: [] };
const planOptions = {
  strategy: 'hermes-2026-04',
  config: DEFAULT_COMPRESSION_CONFIG,
  estimator: 'rough' as const,
  nowMs: 0,
};

describe('computeApi', () => {
  it('plans the open document and tags the plan with its revision', async () => {
    const opened = computeApi.openDocument('plan-test', demo.messages, 'hermes-2026-04', context);
    const planned = await computeApi.plan('plan-test', planOptions);
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(planned.value.revision).toBe(opened.revision);
    expect(planned.value.messageCount).toBe(demo.messages.length);
    expect(planned.value.toolCount).toBe(context.tools.length);
    const reopened = computeApi.openDocument(
      'plan-test',
      demo.messages.slice(0, 20),
      'hermes-2026-04',
      context,
    );
    const replanned = await computeApi.plan('plan-test', planOptions);
    expect(replanned.ok && replanned.value.revision).toBe(reopened.revision);
    expect(replanned.ok && replanned.value.messageCount).toBe(20);
  });

  it('refuses a strategy name no strategy has, as data', async () => {
    computeApi.openDocument('unknown-strategy', demo.messages, 'hermes-2026-04', context);
    const planned = await computeApi.plan('unknown-strategy', { ...planOptions, strategy: 'gpt-magic' });
    expect(planned).toEqual({ ok: false, error: { message: "Unknown strategy 'gpt-magic'" } });
  });

  it('reports a missing document as data, not a throw', async () => {
    const planned = await computeApi.plan('never-opened', planOptions);
    expect(planned).toEqual({ ok: false, error: { message: "No open document 'never-opened'" } });
  });

  it('opens an import only when it succeeds', async () => {
    computeApi.openDocument('import-test', demo.messages, 'hermes-2026-04', context);
    const failed = await computeApi.importText('{"messages": [', { openAs: 'import-test' });
    expect(failed.ok).toBe(false);
    const still = await computeApi.plan('import-test', planOptions);
    expect(still.ok && still.value.messageCount).toBe(demo.messages.length);
    const imported = await computeApi.importText(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      }),
      { openAs: 'import-test' },
    );
    expect(imported.ok && imported.value.opened?.perMessage).toHaveLength(2);
    const planned = await computeApi.plan('import-test', planOptions);
    expect(planned.ok && planned.value.messageCount).toBe(2);
  });

  it('compresses with the offline summariser, opens the result, and re-compresses it', async () => {
    computeApi.openDocument('compress-test', demo.messages, 'hermes-2026-04', context);
    const first = await computeApi.compress(
      'compress-test',
      { ...planOptions, openResultAs: 'compress-result' },
      null,
    );
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.value.offline).toBe(true);
    expect(first.value.summarizerLabel).toBe('Offline summariser (no LLM)');
    expect(first.value.messages.length).toBeLessThan(demo.messages.length);
    expect(first.value.diff.after).toHaveLength(first.value.messages.length);
    expect(first.value.diff.counts.inserted).toBeGreaterThanOrEqual(1);
    // Fidelity and ledger come with every compaction: the demo's summarised middle names files
    // and commands, and the offline summary keeps some of them.
    const assessment = first.value.assessment!;
    expect(assessment.fidelity.total).toBeGreaterThan(10);
    expect(assessment.fidelity.score).toBeGreaterThan(0);
    expect(assessment.fidelity.score).toBeLessThan(1);
    expect(assessment.summaryMeasured).toBe(false);
    expect(assessment.cache.source).toBe('simulation');
    expect(assessment.ledger.savedTokensPerTurn).toBeGreaterThan(0);
    const resultPlan = await computeApi.plan('compress-result', {
      ...planOptions,
      state: first.value.state,
    });
    expect(resultPlan.ok && resultPlan.value.revision).toBe(first.value.resultRevision);
    const second = await computeApi.compress(
      'compress-result',
      { ...planOptions, state: first.value.state },
      null,
    );
    expect(second.ok && second.value.state.compressionCount).toBe(2);
    expect(second.ok && second.value.warning).toContain('compressed');
    // A compaction that changed nothing has nothing to assess.
    computeApi.openDocument('compress-tiny', demo.messages.slice(0, 3), 'hermes-2026-04', context);
    const tiny = await computeApi.compress('compress-tiny', planOptions, null);
    expect(tiny.ok && tiny.value.skipped).toBeTruthy();
    expect(tiny.ok && tiny.value.assessment).toBeNull();
  });

  it('summarises through the page when given a summariser callback', async () => {
    computeApi.openDocument('remote-test', demo.messages, 'hermes-2026-07', context);
    const prompts: string[] = [];
    const summarize = async (request: SummaryRequest): Promise<string> => {
      prompts.push(request.prompt);
      return '## Goal\nREMOTE SUMMARY';
    };
    const compressed = await computeApi.compress(
      'remote-test',
      { ...planOptions, strategy: 'hermes-2026-07', today: '2026-11-30' },
      'Mock provider',
      summarize,
    );
    expect(compressed.ok).toBe(true);
    if (!compressed.ok) return;
    expect(prompts).toHaveLength(1);
    expect(compressed.value.offline).toBe(false);
    expect(compressed.value.summarizerLabel).toBe('Mock provider');
    expect(compressed.value.summaries[0]?.body).toContain('REMOTE SUMMARY');
    // The prompt stays in the worker: the reply carries its length and start, `summaryPrompt` all of it.
    expect(compressed.value.summaries[0]?.prompt).toBeNull();
    expect(compressed.value.promptPreview).toEqual({ chars: prompts[0]!.length, text: prompts[0] });
    expect(computeApi.summaryPrompt('remote-test')).toBe(prompts[0]);
    // Committing reviewed bodies calls no summariser: the prompt that wrote them stays the run's.
    const committed = await computeApi.compress(
      'remote-test',
      { ...planOptions, strategy: 'hermes-2026-07', summaryOverrides: ['## Goal\nREVIEWED'] },
      null,
    );
    expect(committed.ok && committed.value.promptPreview).toBeNull();
    expect(computeApi.summaryPrompt('remote-test')).toBe(prompts[0]);
    computeApi.closeDocument('remote-test');
    expect(computeApi.summaryPrompt('remote-test')).toBeNull();
  });
});
