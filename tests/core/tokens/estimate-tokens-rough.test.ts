import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/token_estimates.ts';
import { estimateTokensRough, roughTokensFromChars } from '#core/tokens/estimate-tokens-rough.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';

describe('estimateTokensRough', () => {
  it.each(
    hermesVectorRuns('token_estimates.json').filter(
      (run) => run.testCase.function === 'estimate_tokens_rough',
    ),
  )('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('rounds up so that one character is one token', () => {
    expect([estimateTokensRough(''), estimateTokensRough('a'), estimateTokensRough('abcde')]).toEqual([
      0, 1, 2,
    ]);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(estimateTokensRough('🙂🙂🙂🙂')).toBe(1);
  });
});

describe('roughTokensFromChars', () => {
  it('is (chars + 3) // 4', () => {
    expect([0, 1, 4, 5, 8].map(roughTokensFromChars)).toEqual([0, 1, 1, 2, 2]);
  });
});
