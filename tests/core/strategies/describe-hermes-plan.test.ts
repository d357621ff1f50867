import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { deriveThresholds } from '#core/config/derive-thresholds.ts';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import {
  describeHermesHead,
  describeHermesHygiene,
  describeHermesPruning,
} from '#core/strategies/describe-hermes-plan.ts';
import { describeThresholdRule } from '#core/strategies/hermes.ts';

describe('describeThresholdRule', () => {
  it('names the 2026-07 floor and the 64K minimum', () => {
    const floored = deriveThresholds(
      { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 100_000 },
      HERMES_2026_07,
    );
    expect(describeThresholdRule(floored)).toBe(
      '75% of the 100,000-token window (raised from the configured 50%: windows under 512K trigger no lower than 75%)',
    );
    const minimum = deriveThresholds(
      { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 100_000 },
      HERMES_2026_04,
    );
    expect(describeThresholdRule(minimum)).toBe(
      '50% of the 100,000-token window — raised to the 64,000-token minimum',
    );
  });
});

describe('describeHermesHead', () => {
  it('describes both head rules and the decay', () => {
    expect(
      describeHermesHead(
        { headRule: HERMES_2026_04.boundaries.head, headSize: 3 },
        4,
        true,
        { protectFirstN: 3 },
        createCompressorState(),
      ),
    ).toBe(
      'Head: the first 3 messages stay verbatim (protect_first_n = 3, the system prompt counted inside it), then moved forward past tool results to #4.',
    );
    expect(
      describeHermesHead(
        { headRule: HERMES_2026_07.boundaries.head, headSize: 1 },
        1,
        true,
        { protectFirstN: 3 },
        createCompressorState({ compressionCount: 1 }),
      ),
    ).toBe(
      'Head: the first 1 message stay verbatim (the system prompt + protect_first_n = 0 (decayed from 3 after the first compaction)).',
    );
    expect(
      describeHermesHead(
        { headRule: HERMES_2026_04.boundaries.head, headSize: 4, systemPromptOutside: true },
        4,
        true,
        { protectFirstN: 3 },
        createCompressorState(),
      ),
    ).toBe(
      "Head: the first 4 messages stay verbatim (the chat's system prompt, kept outside the compaction, + protect_first_n = 3).",
    );
  });
});

describe('describeHermesPruning', () => {
  it('counts pruning by kind', () => {
    const pruned = [
      {
        index: 3,
        kind: 'one-liner',
        toolName: 'terminal',
        originalChars: 4000,
        replacement: '[terminal] ran `ls`',
      },
      {
        index: 30,
        kind: 'duplicate',
        toolName: 'read_file',
        originalChars: 900,
        replacement: '[Duplicate…]',
      },
      { index: 2, kind: 'arguments', toolName: 'write_file', originalChars: 9000, replacement: '{}' },
    ] as const;
    expect(describeHermesPruning({ prunedCount: 2, pruneBoundary: 29 }, pruned, 1234)).toBe(
      'Pruning: 2 old tool outputs would be replaced (1 becomes a one-liner, 1 duplicate points to a newer copy, 1 tool call gets its long arguments shrunk); outputs from #29 on are protected. About 1,234 tokens reclaimed.',
    );
    const many = [
      ...pruned,
      { ...pruned[0], index: 4 },
      { index: 5, kind: 'image', toolName: 'browser', originalChars: 50_000, replacement: '[screenshot]' },
      { index: 6, kind: 'image', toolName: 'browser', originalChars: 50_000, replacement: '[screenshot]' },
      { ...pruned[2], index: 1 },
    ] as const;
    expect(describeHermesPruning({ prunedCount: 5, pruneBoundary: 29 }, many, 10)).toContain(
      '(2 become one-liners, 1 duplicate points to a newer copy, 2 screenshots are removed, 2 tool calls get their long arguments shrunk)',
    );
    expect(describeHermesPruning({ prunedCount: 0, pruneBoundary: 0 }, [], 0)).toContain(
      'no old tool output',
    );
  });
});

describe('describeHermesHygiene', () => {
  it('reports the hygiene decision and the hard message limit', () => {
    const hygiene = {
      runsCheck: true,
      thresholdTokens: 170_000,
      warnAfterTokens: 190_000,
      tokensUsed: 108_700,
      tokenSource: 'estimated',
      needsCompress: false,
    } as const;
    expect(describeHermesHygiene(hygiene)).toBe(
      'Session hygiene (85% of the window = 170,000): 108,700 tokens (estimated) → no hygiene compaction.',
    );
    expect(describeHermesHygiene({ ...hygiene, tokensUsed: 1000, needsCompress: true })).toContain(
      'because the message count reached the hard limit',
    );
    expect(describeHermesHygiene({ runsCheck: false, needsCompress: false })).toContain('not checked');
  });
});
