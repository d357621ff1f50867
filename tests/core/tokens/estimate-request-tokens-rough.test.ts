import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/token_estimates.ts';
import { estimateRequestTokensRough } from '#core/tokens/estimate-request-tokens-rough.ts';
import type { Message } from '#core/transcript/message.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('estimateRequestTokensRough', () => {
  it.each(
    hermesVectorRuns('token_estimates.json').filter(
      (run) => run.testCase.function === 'estimate_request_tokens_rough',
    ),
  )('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('rounds once in 2026-04 and per term in 2026-07', () => {
    // A 1-character system prompt and a 33-character message: (1 + 33 + 3) // 4 = 9 at once, 1 + 9 per term.
    const messages: Message[] = [{ role: 'user', content: 'ab' }];
    expect(estimateRequestTokensRough(messages, 'a', null, HERMES_2026_04)).toBe(9);
    expect(estimateRequestTokensRough(messages, 'a', null, HERMES_2026_07)).toBe(10);
  });
});
