import { describe, expect, it } from 'vitest';
import { hygieneDecision } from '#core/compression/hygiene-decision.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const input = {
  historyLength: 50,
  contextLength: 200_000,
  lastPromptTokens: 0,
  roughTokens: 170_000,
  compressionEnabled: true,
  hardMessageLimit: 5000,
};

describe('hygieneDecision', () => {
  it('uses the rough estimate when no real count is known and compacts at 85%', () => {
    expect(hygieneDecision(input, HERMES_2026_07)).toEqual({
      runsCheck: true,
      thresholdTokens: 170_000,
      warnAfterTokens: 190_000,
      tokensUsed: 170_000,
      tokenSource: 'estimated',
      needsCompress: true,
    });
  });

  it('prefers the real prompt count', () => {
    const decision = hygieneDecision({ ...input, lastPromptTokens: 1000 }, HERMES_2026_07);
    expect(decision).toMatchObject({ tokenSource: 'actual', tokensUsed: 1000, needsCompress: false });
  });

  it('forces compaction at the hard message limit (400 in 2026-04, configured in 2026-07)', () => {
    const long = { ...input, roughTokens: 10, historyLength: 400 };
    expect(hygieneDecision(long, HERMES_2026_04).needsCompress).toBe(true);
    expect(hygieneDecision(long, HERMES_2026_07).needsCompress).toBe(false);
    expect(hygieneDecision({ ...long, hardMessageLimit: 400 }, HERMES_2026_07).needsCompress).toBe(true);
  });

  it('does not run for short histories or with compression disabled', () => {
    expect(hygieneDecision({ ...input, historyLength: 3 }, HERMES_2026_07).runsCheck).toBe(false);
    expect(hygieneDecision({ ...input, compressionEnabled: false }, HERMES_2026_07).runsCheck).toBe(false);
  });
});
