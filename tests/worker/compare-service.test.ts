import { describe, expect, it } from 'vitest';
import type { CompareProgress } from '#core/comparison/comparison.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { computeApi, type CompareRequest } from '#worker/compute-api.ts';

const demo = buildDemoTranscript();
const route: CompareRequest['route'] = {
  model: 'claude-sonnet-4-6',
  provider: 'anthropic',
  baseUrl: '',
  apiMode: 'anthropic_messages',
  cacheTtl: '5m',
  promptCaching: true,
};
const request = (runId: string, overrides: Partial<CompareRequest> = {}): CompareRequest => ({
  runId,
  entries: [{ strategy: 'codex-cli' }, { strategy: 'claude-code' }],
  config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 },
  estimator: 'rough',
  route,
  ...overrides,
});

describe('computeApi.compare', () => {
  it('compares on an open document and reports progress up to the end', async () => {
    computeApi.openDocument('compare-demo', demo.messages, 'hermes-2026-04', {
      tools: demo.metadata.tools ?? [],
    });
    const seen: CompareProgress[] = [];
    const result = await computeApi.compare('compare-demo', request('run-1'), (progress) =>
      seen.push(progress),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.rows.map((row) => row.strategy)).toEqual(['codex-cli', 'claude-code']);
    expect(result.value.counting).toBe('rough');
    expect(result.value.messages).toBe(demo.messages.length);
    // Throttled, but the last report always arrives.
    expect(seen[seen.length - 1]).toMatchObject({
      done: seen[0]!.total,
      total: 2 * (1 + demo.messages.length),
    });
  });

  it('uses the exact counts once they are complete', async () => {
    computeApi.openDocument('compare-exact', demo.messages, 'hermes-2026-04', {
      tools: demo.metadata.tools ?? [],
    });
    const counts = await computeApi.countExact('compare-exact', 'o200k_base');
    const result = await computeApi.compare(
      'compare-exact',
      request('run-exact', { estimator: 'o200k_base' }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.counting).toBe('o200k_base');
    // Messages (the worker's exact counts) plus the tool schemas' exact count.
    expect(result.value.tokensBefore).toBeGreaterThan(counts.total);
  });

  it('stops a running comparison when cancelled', async () => {
    const long = generateAgentTranscript({ messageCount: 3000, seed: 3 });
    computeApi.openDocument('compare-long', long.messages, 'hermes-2026-04', {
      tools: long.metadata.tools ?? [],
    });
    let cancelledAt: number | null = null;
    const result = await computeApi.compare(
      'compare-long',
      request('run-cancel', { config: DEFAULT_COMPRESSION_CONFIG }),
      (progress) => {
        if (cancelledAt === null && progress.done > 0) {
          cancelledAt = progress.done;
          computeApi.cancelCompare('run-cancel');
        }
      },
    );
    expect(cancelledAt).not.toBeNull();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers as any
    expect(result).toEqual({ ok: false, error: { type: 'Cancelled', message: expect.any(String) } });
  });

  it('reports a missing document as data', async () => {
    expect(await computeApi.compare('never-opened', request('run-missing'))).toEqual({
      ok: false,
      error: { type: 'Failed', message: "No open document 'never-opened'" },
    });
  });
});
