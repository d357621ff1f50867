import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { generateSummary, type GenerateSummaryInput } from '#core/compression/generate-summary.ts';
import { SUMMARY_PREFIX_2026_04, SUMMARY_PREFIX_2026_07 } from '#core/compression/markers.ts';
import { assistant, failingSummarizer, recordingSummarizer, user } from './message-builders.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const input = (overrides: Partial<GenerateSummaryInput> = {}): GenerateSummaryInput => ({
  turns: [user('fix the login bug'), assistant('on it')],
  preset: HERMES_2026_07,
  state: createCompressorState(),
  focusTopic: null,
  memoryContext: null,
  today: null,
  maxSummaryTokens: 10_000,
  summaryModel: null,
  mainModel: null,
  ...overrides,
});
const deps = (
  summarizer: ReturnType<typeof recordingSummarizer> | ReturnType<typeof failingSummarizer>,
  nowMs = 0,
) => ({
  summarizer,
  now: () => nowMs,
});

describe('generateSummary', () => {
  it('grounds the task snapshot on the last real user ask and stores the body (2026-07)', async () => {
    const result = await generateSummary(input(), deps(recordingSummarizer(() => '## Goal\nfix it')));
    expect(result.body).toBe(
      "## Historical Task Snapshot\nUser asked (deterministic, from compacted turns): 'fix the login bug'\n" +
        'Historical only; newer protected-tail messages after this summary win.\n\n## Goal\nfix it',
    );
    expect(result.summary).toBe(`${SUMMARY_PREFIX_2026_07}\n${result.body}`);
    expect(result.state.previousSummary).toBe(result.body);
  });

  it('replaces an invented task snapshot section instead of prepending', async () => {
    const answer = '## Historical Task Snapshot\nUser asked: something else\n\n## Goal\ng';
    const result = await generateSummary(input(), deps(recordingSummarizer(() => answer)));
    expect(result.body!.match(/## Historical Task Snapshot/g)).toHaveLength(1);
    expect(result.body).toContain("'fix the login bug'");
    expect(result.body).toContain('\n\n## Goal\ng');
  });

  it('strips think blocks from the answer but keeps it when nothing else is left', async () => {
    const stripped = await generateSummary(
      input({ turns: [] }),
      deps(recordingSummarizer(() => '<think>x</think>BODY')),
    );
    expect(stripped.body).toBe('BODY');
    const onlyThink = await generateSummary(
      input({ turns: [] }),
      deps(recordingSummarizer(() => '<think>x</think>')),
    );
    expect(onlyThink.body).toBe('<think>x</think>');
  });

  it('treats an empty answer as a failure in 2026-07 and as an empty body in 2026-04', async () => {
    const current = await generateSummary(input(), deps(recordingSummarizer(() => '  ')));
    expect(current.summary).toBeNull();
    expect(current.failure?.message).toContain('returned empty content');
    const legacy = await generateSummary(
      input({ preset: HERMES_2026_04 }),
      deps(recordingSummarizer(() => '')),
    );
    expect(legacy.summary).toBe(SUMMARY_PREFIX_2026_04);
  });

  it('sends max_tokens = int(budget × 1.3) only in 2026-04', async () => {
    const summarizer = recordingSummarizer();
    await generateSummary(input({ preset: HERMES_2026_04 }), deps(summarizer));
    await generateSummary(input(), deps(summarizer));
    expect(summarizer.requests.map((request) => request.maxTokens)).toEqual([2600, null]);
  });

  it('skips the call while a cooldown is active', async () => {
    const summarizer = recordingSummarizer();
    const result = await generateSummary(
      input({ state: createCompressorState({ cooldownUntilMs: 5000 }) }),
      deps(summarizer, 1000),
    );
    expect(result).toMatchObject({ summary: null, skippedForCooldown: true, prompt: null });
    expect(summarizer.requests).toHaveLength(0);
  });

  it('retries once on the main model when a separate summary model fails (2026-07, any error)', async () => {
    const summarizer = recordingSummarizer((request) => {
      if (request.model) throw new Error('boom');
      return 'BODY';
    });
    const result = await generateSummary(
      input({ summaryModel: 'aux-mini', mainModel: 'main' }),
      deps(summarizer),
    );
    expect(summarizer.requests.map((request) => request.model)).toEqual(['aux-mini', null]);
    expect(result.auxModelFailure).toEqual({ model: 'aux-mini', error: 'boom' });
    expect(result.state.summaryModelFallenBack).toBe(true);
    expect(result.summary).not.toBeNull();
  });

  it('retries on the main model in 2026-04 only when the model is missing', async () => {
    const summarizer = failingSummarizer({ message: 'boom' });
    await generateSummary(input({ preset: HERMES_2026_04, summaryModel: 'aux' }), deps(summarizer));
    expect(summarizer.calls).toBe(1);
    const missing = failingSummarizer({ message: 'model_not_found' });
    await generateSummary(input({ preset: HERMES_2026_04, summaryModel: 'aux' }), deps(missing));
    expect(missing.calls).toBe(2);
  });

  it('sets the cooldown from the clock and climbs the timeout ladder', async () => {
    const first = await generateSummary(input(), deps(failingSummarizer({ message: 'timed out' }), 1000));
    expect(first.state).toMatchObject({
      cooldownUntilMs: 61_000,
      consecutiveTimeouts: 1,
      lastSummaryError: 'timed out',
    });
    const second = await generateSummary(
      input({ state: first.state }),
      deps(failingSummarizer({ message: 'timed out' }), 70_000),
    );
    expect(second.state.cooldownUntilMs).toBe(370_000);
  });

  it('marks auth and network failures so compress() aborts (2026-07)', async () => {
    const auth = await generateSummary(input(), deps(failingSummarizer({ message: 'nope', status: 401 })));
    expect(auth.state.lastSummaryAuthFailure).toBe(true);
    const network = await generateSummary(input(), deps(failingSummarizer({ message: 'fetch failed' })));
    expect(network.state.lastSummaryNetworkFailure).toBe(true);
  });

  it('uses a 600 s cooldown for a missing provider', async () => {
    const result = await generateSummary(
      input(),
      deps(failingSummarizer({ message: 'No LLM provider configured' })),
    );
    expect(result.state.cooldownUntilMs).toBe(600_000);
    expect(result.state.lastSummaryError).toBe('no auxiliary LLM provider configured');
  });

  it('passes a cancellation through instead of classifying it', async () => {
    const controller = { aborted: true };
    const summarizer = failingSummarizer({ name: 'AbortError', message: 'aborted' });
    await expect(generateSummary(input(), { summarizer, now: () => 0, signal: controller })).rejects.toThrow(
      'aborted',
    );
  });
});
