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

  describe('the hard message limit', () => {
    const small = { ...input, roughTokens: 10 };
    it.each([
      [399, false],
      [400, true],
      [401, true],
    ])('2026-04 forces compaction at a fixed 400 messages: %i -> %s', (historyLength, needs) => {
      expect(hygieneDecision({ ...small, historyLength }, HERMES_2026_04).needsCompress).toBe(needs);
    });

    it.each([
      [4999, false],
      [5000, true],
    ])('2026-07 reads the configured limit (default 5000): %i -> %s', (historyLength, needs) => {
      expect(hygieneDecision({ ...small, historyLength }, HERMES_2026_07).needsCompress).toBe(needs);
    });

    it('2026-04 ignores a configured limit; 2026-07 follows it both ways', () => {
      expect(
        hygieneDecision({ ...small, historyLength: 450, hardMessageLimit: 1000 }, HERMES_2026_04)
          .needsCompress,
      ).toBe(true);
      expect(
        hygieneDecision({ ...small, historyLength: 450, hardMessageLimit: 1000 }, HERMES_2026_07)
          .needsCompress,
      ).toBe(false);
      expect(
        hygieneDecision({ ...small, historyLength: 120, hardMessageLimit: 100 }, HERMES_2026_07)
          .needsCompress,
      ).toBe(true);
    });

    it('keeps the token figures of the decision when only the count fires', () => {
      expect(
        hygieneDecision({ ...small, historyLength: 400, lastPromptTokens: 1000 }, HERMES_2026_04),
      ).toEqual({
        runsCheck: true,
        thresholdTokens: 170_000,
        warnAfterTokens: 190_000,
        tokensUsed: 1000,
        tokenSource: 'actual',
        needsCompress: true,
      });
    });
  });

  it('compacts at exactly 85% and not one token below', () => {
    expect(hygieneDecision({ ...input, roughTokens: 170_000 }, HERMES_2026_04).needsCompress).toBe(true);
    expect(hygieneDecision({ ...input, roughTokens: 169_999 }, HERMES_2026_04).needsCompress).toBe(false);
  });

  it('treats the -1 just-compacted sentinel and 0 as no real count', () => {
    for (const lastPromptTokens of [0, -1]) {
      expect(hygieneDecision({ ...input, lastPromptTokens }, HERMES_2026_07)).toMatchObject({
        tokenSource: 'estimated',
        tokensUsed: 170_000,
      });
    }
  });

  it('runs from 4 stored messages on, even past the hard limit only when enabled', () => {
    expect(hygieneDecision({ ...input, historyLength: 4 }, HERMES_2026_07).runsCheck).toBe(true);
    expect(
      hygieneDecision({ ...input, historyLength: 5000, compressionEnabled: false }, HERMES_2026_07),
    ).toEqual({ runsCheck: false, needsCompress: false });
  });

  it('does not run for short histories or with compression disabled', () => {
    expect(hygieneDecision({ ...input, historyLength: 3 }, HERMES_2026_07).runsCheck).toBe(false);
    expect(hygieneDecision({ ...input, compressionEnabled: false }, HERMES_2026_07).runsCheck).toBe(false);
  });
});
