import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { deriveThresholds } from '#core/config/derive-thresholds.ts';
import {
  describeHead,
  describeHygiene,
  describePruning,
  describeThreshold,
  describeTrigger,
} from '#core/lab/describe-plan.ts';
import type { LabPlan, MapRegion } from '#core/lab/lab-plan.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const regions: MapRegion[] = [
  { name: 'system', start: 0, end: 1, tokens: 700, offset: 0 },
  { name: 'tools', start: 1, end: 1, tokens: 300, offset: 700 },
  { name: 'head', start: 1, end: 4, tokens: 3000, offset: 1000 },
  { name: 'middle', start: 4, end: 40, tokens: 80_000, offset: 4000 },
  { name: 'tail', start: 40, end: 49, tokens: 25_000, offset: 84_000 },
];

function plan(overrides: Partial<LabPlan> = {}): LabPlan {
  const thresholds = deriveThresholds(DEFAULT_COMPRESSION_CONFIG, HERMES_2026_04);
  return {
    preset: 'hermes-2026-04',
    headRule: HERMES_2026_04.boundaries.head,
    messageCount: 49,
    estimator: 'rough',
    tokenBasis: 'rough',
    tokensPerMessage: new Int32Array(49),
    regions,
    totalTokens: 109_000,
    systemTokens: 700,
    toolsTokens: 300,
    toolCount: 6,
    thresholds,
    tailTokenBudget: thresholds.tailTokenBudget,
    windowTokens: 200_000,
    hygieneTokens: 170_000,
    hygiene: {
      runsCheck: true,
      thresholdTokens: 170_000,
      warnAfterTokens: 190_000,
      tokensUsed: 108_700,
      tokenSource: 'estimated',
      needsCompress: false,
    },
    triggerTokens: 109_000,
    wouldCompress: true,
    reason: 'ready',
    headSize: 3,
    tooFewMessages: false,
    minMessagesExclusive: 7,
    pruneBoundary: 29,
    prunedCount: 2,
    pruned: [
      {
        index: 3,
        kind: 'one-liner',
        toolName: 'terminal',
        originalChars: 4000,
        replacement: '[terminal] ran `ls` -> exit 0, 3 lines output',
      },
      {
        index: 30,
        kind: 'duplicate',
        toolName: 'read_file',
        originalChars: 900,
        replacement: '[Duplicate tool output — same content as a more recent call]',
      },
      { index: 2, kind: 'arguments', toolName: 'write_file', originalChars: 9000, replacement: '{}' },
    ],
    prunedSpans: [],
    prunedSavedTokens: 1234,
    headEnd: 4,
    tailStart: 40,
    tailCutSteps: [],
    raised: null,
    compactionMarkers: [],
    elapsedMs: 3,
    revision: 1,
    ...overrides,
  };
}

describe('describeTrigger', () => {
  it('says it would fire, with the tokens, the threshold derivation and the middle', () => {
    const explanation = describeTrigger(plan());
    expect(explanation.verdict).toBe('Compaction would fire now.');
    expect(explanation.details).toEqual([
      '109,000 tokens (rough estimate, chars/4 as Hermes counts, messages + tool schemas) reach the threshold of 100,000.',
      'Threshold = 50% of the 200,000-token window: 100,000 tokens.',
      'The middle (36 messages, 80,000 tokens) would be summarised into at most 10,000 tokens.',
      'Tail budget = threshold × target ratio 20% = 20,000 tokens.',
    ]);
  });

  it('counts the distance to the threshold and notes pending exact counts', () => {
    const explanation = describeTrigger(
      plan({
        triggerTokens: 60_000,
        wouldCompress: false,
        reason: 'below-threshold',
        estimator: 'o200k_base',
      }),
    );
    expect(explanation.verdict).toBe('Compaction would not fire now.');
    expect(explanation.details[0]).toContain(
      '(o200k_base counts are still being computed) are below the threshold',
    );
    expect(explanation.details[2]).toBe('40,000 more tokens before it fires.');
  });

  it('explains every blocking reason', () => {
    expect(
      describeTrigger(plan({ wouldCompress: false, reason: 'too-few-messages', messageCount: 6 })).details[2],
    ).toBe(
      'But compress() needs more than 7 messages (head 3 + 3 + 1); this transcript has 6, so it would be returned unchanged.',
    );
    expect(
      describeTrigger(plan({ wouldCompress: false, reason: 'no-compressible-window' })).details[2],
    ).toContain('nothing is left');
    expect(
      describeTrigger(
        plan({
          wouldCompress: false,
          reason: 'hermes-raised',
          raised: {
            type: 'HermesRaised',
            function: '_summarize_tool_result',
            exception: "TypeError: object of type 'bool' has no len()",
          },
        }),
      ).details[2],
    ).toBe(
      "But this generation's Hermes raised while pruning old tool results (_summarize_tool_result: " +
        "TypeError: object of type 'bool' has no len()), so its compress() would fail and compact nothing.",
    );
    expect(describeTrigger(plan({ wouldCompress: false, reason: 'ineffective' })).details[2]).toContain(
      'anti-thrash',
    );
    expect(describeTrigger(plan({ wouldCompress: false, reason: 'fallback-streak' })).details[2]).toContain(
      'fallback streak',
    );
    expect(
      describeTrigger(plan({ wouldCompress: false, reason: 'cooldown' }), {
        cooldownUntilMs: 5,
        lastSummaryError: '429',
      }).details[2],
    ).toBe('But a failed summary put compaction on cooldown (429).');
  });
});

describe('describeThreshold', () => {
  it('names the 2026-07 floor and the 64K minimum', () => {
    const floored = deriveThresholds(
      { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 100_000 },
      HERMES_2026_07,
    );
    expect(describeThreshold({ thresholds: floored })).toBe(
      'Threshold = 75% of the 100,000-token window (raised from the configured 50%: windows under 512K trigger no lower than 75%): 75,000 tokens.',
    );
    const minimum = deriveThresholds(
      { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 100_000 },
      HERMES_2026_04,
    );
    expect(describeThreshold({ thresholds: minimum })).toBe(
      'Threshold = 50% of the 100,000-token window — raised to the 64,000-token minimum: 64,000 tokens.',
    );
  });
});

describe('describeHead, describePruning, describeHygiene', () => {
  it('describes both head rules and the decay', () => {
    expect(describeHead(plan(), 3, 0)).toBe(
      'Head: the first 3 messages stay verbatim (protect_first_n = 3, the system prompt counted inside it), then moved forward past tool results to #4.',
    );
    expect(
      describeHead(plan({ headRule: HERMES_2026_07.boundaries.head, headSize: 1, headEnd: 1 }), 3, 1),
    ).toBe(
      'Head: the first 1 message stay verbatim (the system prompt + protect_first_n = 0 (decayed from 3 after the first compaction)).',
    );
  });

  it('counts pruning by kind', () => {
    expect(describePruning(plan())).toBe(
      'Pruning: 2 old tool outputs would be replaced (1 become one-liners, 1 duplicates point to a newer copy, 1 tool calls get their long arguments shrunk); outputs from #29 on are protected. About 1,234 tokens reclaimed.',
    );
    expect(describePruning(plan({ pruned: [] }))).toContain('no old tool output');
  });

  it('reports the hygiene decision', () => {
    expect(describeHygiene(plan())).toBe(
      'Session hygiene (85% of the window = 170,000): 108,700 tokens (estimated) → no hygiene compaction.',
    );
    expect(
      describeHygiene(
        plan({
          hygiene: {
            runsCheck: true,
            thresholdTokens: 170_000,
            warnAfterTokens: 190_000,
            tokensUsed: 1000,
            tokenSource: 'estimated',
            needsCompress: true,
          },
        }),
      ),
    ).toContain('because the message count reached the hard limit');
  });
});
