import { describe, expect, it } from 'vitest';
import {
  judgeCompressionProgress,
  type CompressionProgressInput,
} from '#core/providers/judge-compression-progress.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const base: CompressionProgressInput = {
  reason: 'context_overflow',
  messagesBefore: 40,
  messagesAfter: 40,
  tokensBefore: 100_000,
  tokensAfter: 100_000,
  contextLowered: false,
  approxTokens: 182_430,
  canStripToolImages: false,
};

describe('judgeCompressionProgress', () => {
  it('retries after 2 s when the compression dropped messages', () => {
    expect(judgeCompressionProgress({ ...base, messagesAfter: 12 }, HERMES_2026_04)).toEqual({
      kind: 'retry',
      delayMs: 2000,
    });
  });

  it('retries an overflow when the window was lowered, even without fewer messages', () => {
    expect(judgeCompressionProgress({ ...base, contextLowered: true }, HERMES_2026_04).kind).toBe('retry');
  });

  it('counts a token drop below 95% as progress in 2026-07 only', () => {
    const input = { ...base, tokensAfter: 90_000 };
    expect(judgeCompressionProgress(input, HERMES_2026_07).kind).toBe('retry');
    expect(judgeCompressionProgress(input, HERMES_2026_04)).toEqual({
      kind: 'fail',
      message: 'Context length exceeded (182,430 tokens). Cannot compress further.',
      compressionExhausted: true,
    });
  });

  it('fails a 413 without progress, or strips tool images once in 2026-07', () => {
    const input: CompressionProgressInput = {
      ...base,
      reason: 'payload_too_large',
      canStripToolImages: true,
    };
    expect(judgeCompressionProgress(input, HERMES_2026_07)).toEqual({
      kind: 'strip-tool-images-and-retry',
      delayMs: 2000,
    });
    expect(judgeCompressionProgress(input, HERMES_2026_04)).toEqual({
      kind: 'fail',
      message: 'Request payload too large (413). Cannot compress further.',
      compressionExhausted: true,
    });
    expect(judgeCompressionProgress({ ...input, messagesAfter: 10 }, HERMES_2026_04).kind).toBe('retry');
  });

  it('retries a long-context-tier step-down when the window was reduced', () => {
    expect(
      judgeCompressionProgress({ ...base, reason: 'long_context_tier', contextLowered: true }, HERMES_2026_07)
        .kind,
    ).toBe('retry');
    expect(
      judgeCompressionProgress({ ...base, reason: 'long_context_tier', tokensAfter: 10 }, HERMES_2026_07)
        .kind,
    ).toBe('fail');
  });
});
