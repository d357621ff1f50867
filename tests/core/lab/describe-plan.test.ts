import { describe, expect, it } from 'vitest';
import { describeTrigger } from '#core/lab/describe-plan.ts';
import type { LabPlan } from '#core/lab/lab-plan.ts';
import { FATE } from '#core/strategies/strategy.ts';

type TriggerPlan = Parameters<typeof describeTrigger>[0];

function plan(overrides: Partial<LabPlan> = {}): TriggerPlan {
  return {
    wouldCompress: true,
    reason: 'ready',
    trigger: { thresholdTokens: 100_000, rule: '50% of the 200,000-token window' },
    triggerTokens: 109_000,
    triggerBasis: 'rough',
    counts: { rough: 109_000, exact: null },
    countsDisagree: false,
    estimator: 'rough',
    tokenBasis: 'rough',
    headEnd: 4,
    tailStart: 40,
    messageCount: 49,
    summaries: [{ start: 4, end: 40, kind: 'middle' }],
    fates: new Uint8Array(49),
    after: { tokens: 38_000, messages: 14, summaryTokens: 10_000, segments: [], warnings: [] },
    hermes: null,
    ...overrides,
  };
}

describe('describeTrigger', () => {
  it('says it would fire, with the count it decided on, the rule and the result', () => {
    const explanation = describeTrigger(plan());
    expect(explanation.verdict).toBe('Compaction would fire now.');
    expect(explanation.details).toEqual([
      "109,000 tokens (Hermes' rough estimate, messages + tool schemas) reach the trigger of 100,000: 50% of the 200,000-token window.",
      '36 messages would be summarised; the context would go to about 38,000 tokens.',
    ]);
  });

  it('says how many messages it would drop without a summary', () => {
    const fates = new Uint8Array(49);
    fates.fill(FATE.dropped, 4, 20);
    const explanation = describeTrigger(plan({ fates, summaries: [{ start: 20, end: 40, kind: 'middle' }] }));
    expect(explanation.details[1]).toBe(
      '20 messages would be summarised and 16 messages dropped without a summary; the context would go to about 38,000 tokens.',
    );
  });

  it('shows both countings and says when they disagree about firing', () => {
    const explanation = describeTrigger(
      plan({
        triggerTokens: 93_500,
        wouldCompress: false,
        reason: 'below-threshold',
        estimator: 'o200k_base',
        tokenBasis: 'o200k_base',
        counts: { rough: 93_500, exact: 107_500 },
        countsDisagree: true,
      }),
    );
    expect(explanation.verdict).toBe('Compaction would not fire now.');
    expect(explanation.details[1]).toBe(
      'Both countings: 93,500 rough, 107,500 exact (o200k_base). They disagree about firing: the rough count is under the trigger, the exact one over.',
    );
    expect(explanation.details[2]).toBe('6,500 more tokens before it fires.');
  });

  it('notes exact counts that are still being computed', () => {
    expect(describeTrigger(plan({ estimator: 'cl100k_base' })).details[1]).toBe(
      'Exact cl100k_base counts are still being computed.',
    );
  });

  it('explains every blocking reason', () => {
    const hermes = { minMessagesExclusive: 7, headSize: 3 } as LabPlan['hermes'];
    expect(
      describeTrigger(plan({ wouldCompress: false, reason: 'too-few-messages', messageCount: 6, hermes }))
        .details[1],
    ).toBe(
      'But compress() needs more than 7 messages (head 3 + 3 + 1); this transcript has 6, so it would be returned unchanged.',
    );
    expect(
      describeTrigger(plan({ wouldCompress: false, reason: 'too-few-messages', messageCount: 2 })).details[1],
    ).toBe('But 2 messages are too few to compact.');
    expect(
      describeTrigger(plan({ wouldCompress: false, reason: 'no-compressible-window' })).details[1],
    ).toContain('nothing is left');
    expect(describeTrigger(plan({ wouldCompress: false, reason: 'ineffective' })).details[1]).toContain(
      'anti-thrash',
    );
    expect(describeTrigger(plan({ wouldCompress: false, reason: 'fallback-streak' })).details[1]).toContain(
      'fallback streak',
    );
    expect(describeTrigger(plan({ wouldCompress: false, reason: 'disabled' })).details[1]).toContain(
      'switched off',
    );
    expect(
      describeTrigger(plan({ wouldCompress: false, reason: 'cooldown' }), { lastSummaryError: '429' })
        .details[1],
    ).toBe('But a failed summary put compaction on cooldown (429).');
  });

  it('in the chat, names the count the live loop decides on and the check that fires first', () => {
    const explanation = describeTrigger(
      plan({
        triggerTokens: 27_928,
        trigger: { thresholdTokens: 27_200, rule: '85% of the 32,000-token window' },
        live: {
          firedBy: 'preflight',
          deferred: false,
          requestTokens: 27_928,
          preflightTokens: 27_920,
          hygiene: {
            runsCheck: true,
            thresholdTokens: 27_200,
            warnAfterTokens: 30_400,
            tokensUsed: 26_010,
            tokenSource: 'actual',
            needsCompress: false,
          },
        },
      }),
    );
    expect(explanation.verdict).toBe('Compaction would fire before the next request.');
    expect(explanation.details.slice(0, 4)).toEqual([
      "27,928 tokens (Hermes' rough estimate of the request the chat sends: system prompt, messages and tool schemas) reach the trigger of 27,200: 85% of the 32,000-token window.",
      "In the chat, the loop decides on this count before every request (its pre-request check); the preflight counts the same request with the system prompt as plain text (27,920), and after a tool round the provider's reported prompt count of the last response is judged instead.",
      "Session hygiene: 26,010 tokens (the provider's last reported prompt count) are below 85% of the window (27,200).",
      'Next request: the preflight compacts first.',
    ]);
  });

  it('leaves hygiene to Hermes’ own explanation when it states the same count', () => {
    const hygiene = {
      runsCheck: true,
      thresholdTokens: 27_200,
      warnAfterTokens: 30_400,
      tokensUsed: 26_010,
      tokenSource: 'actual',
      needsCompress: false,
    } as const;
    const live = { firedBy: null, deferred: false, requestTokens: 9_000, preflightTokens: 8_990, hygiene };
    const said = (hermesTokens: number) =>
      describeTrigger(
        plan({ live, hermes: { hygiene: { ...hygiene, tokensUsed: hermesTokens } } as LabPlan['hermes'] }),
      ).details.some((line) => line.startsWith('Session hygiene:'));
    expect(said(26_010)).toBe(false);
    // After a 2026-04 compaction Hermes' state holds the rough estimate; the chat's loop has no count yet.
    expect(said(12_000)).toBe(true);
  });

  it('says when the live loop waits for the provider’s count', () => {
    const live = {
      firedBy: null,
      deferred: true,
      requestTokens: 109_000,
      preflightTokens: 108_990,
      hygiene: { runsCheck: false, needsCompress: false },
    } as const;
    const explanation = describeTrigger(plan({ wouldCompress: false, reason: 'deferred', live }));
    expect(explanation.verdict).toBe('Compaction would not fire before the next request.');
    expect(explanation.details.at(-1)).toContain("waits for the provider's next count");
  });
});
