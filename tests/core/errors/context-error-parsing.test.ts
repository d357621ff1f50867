import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/context_error_parsing.ts';
import {
  getContextLengthFromProviderError,
  getNextProbeTier,
  isOutputCapError,
  parseAvailableOutputTokensFromError,
  parseContextLimitFromError,
} from '#core/errors/context-error-parsing.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('parseContextLimitFromError', () => {
  it.each(hermesVectorRuns('context_error_parsing.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('reads the maximum, not the request, from an Anthropic prompt-too-long error', () => {
    expect(
      parseContextLimitFromError('prompt is too long: 210000 tokens > 200000 maximum', HERMES_2026_04),
    ).toBe(200000);
  });

  it('does not parse a bare error code with a number', () => {
    expect(parseContextLimitFromError('context_length_exceeded: 131072', HERMES_2026_07)).toBeNull();
  });

  it('ignores implausible numbers', () => {
    expect(parseContextLimitFromError('maximum context length is 99999999999', HERMES_2026_07)).toBeNull();
  });
});

describe('getContextLengthFromProviderError', () => {
  it('returns only a limit below the current window', () => {
    expect(getContextLengthFromProviderError('maximum context length is 128000 tokens', 200_000)).toBe(
      128000,
    );
    expect(getContextLengthFromProviderError('maximum context length is 262144 tokens', 200_000)).toBeNull();
  });
});

describe('parseAvailableOutputTokensFromError', () => {
  it('computes vLLM headroom from input tokens in 2026-07', () => {
    const message =
      "This model's maximum context length is 131072 tokens. However, you requested 65536 output tokens and your prompt contains at least 65537 input tokens";
    expect(parseAvailableOutputTokensFromError(message, HERMES_2026_07)).toBe(65535);
    expect(parseAvailableOutputTokensFromError(message, HERMES_2026_04)).toBeNull();
  });
});

describe('isOutputCapError', () => {
  it('needs an output parameter, a cap signal and no input-overflow wording', () => {
    expect(isOutputCapError('max_completion_tokens should be <= 4096')).toBe(true);
    expect(isOutputCapError('prompt is too long; max_tokens must be smaller')).toBe(false);
    expect(isOutputCapError('something must be fixed')).toBe(false);
  });
});

describe('getNextProbeTier', () => {
  it('steps to the first tier below the value', () => {
    expect(getNextProbeTier(200_000, HERMES_2026_07)).toBe(128_000);
    expect(getNextProbeTier(300_000, HERMES_2026_07)).toBe(256_000);
    expect(getNextProbeTier(300_000, HERMES_2026_04)).toBe(128_000);
  });

  it('returns null at the bottom tier', () => {
    expect(getNextProbeTier(HERMES_2026_07.recovery.contextProbeTiers.at(-1)!, HERMES_2026_07)).toBeNull();
  });
});
