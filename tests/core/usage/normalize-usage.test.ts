import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/usage_normalization.ts';
import { normalizeUsage, pythonInt } from '#core/usage/normalize-usage.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('normalizeUsage', () => {
  it.each(hermesVectorRuns('usage_normalization.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('keeps Anthropic input uncached: nothing is subtracted', () => {
    const usage = normalizeUsage(
      { input_tokens: 10, cache_read_input_tokens: 90, cache_creation_input_tokens: 5, output_tokens: 3 },
      { provider: 'custom', apiMode: 'anthropic_messages' },
      HERMES_2026_04,
    );
    expect(usage).toEqual({
      inputTokens: 10,
      outputTokens: 3,
      cacheReadTokens: 90,
      cacheWriteTokens: 5,
      reasoningTokens: 0,
      requestCount: 1,
    });
  });

  it('reads chat reasoning tokens from completion_tokens_details only in 2026-07', () => {
    const raw = {
      prompt_tokens: 5,
      completion_tokens: 9,
      completion_tokens_details: { reasoning_tokens: 7 },
    };
    const route = { provider: 'openai', apiMode: 'chat_completions' };
    expect(normalizeUsage(raw, route, HERMES_2026_07).reasoningTokens).toBe(7);
    expect(normalizeUsage(raw, route, HERMES_2026_04).reasoningTokens).toBe(0);
  });

  it('treats an empty usage object like no usage', () => {
    expect(
      normalizeUsage({}, { provider: '', apiMode: 'chat_completions' }, HERMES_2026_07).inputTokens,
    ).toBe(0);
  });
});

describe('pythonInt', () => {
  it('accepts ints, integral strings and booleans like int(v or 0)', () => {
    expect([pythonInt(12.9), pythonInt(' 42 '), pythonInt('1_000'), pythonInt(true)]).toEqual([
      12, 42, 1000, 1,
    ]);
  });

  it('turns anything unconvertible into 0', () => {
    expect([pythonInt('1.5'), pythonInt('abc'), pythonInt(null), pythonInt({}), pythonInt(NaN)]).toEqual([
      0, 0, 0, 0, 0,
    ]);
  });
});
