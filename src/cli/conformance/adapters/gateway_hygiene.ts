import { DEFAULT_COMPRESSION_CONFIG } from '../../../core/config/compression-config.ts';
import { hygieneDecision } from '../../../core/compression/hygiene-decision.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface HygieneVectorInput {
  history_len: number;
  context_length: number;
  last_prompt_tokens: number;
  rough_tokens: number;
  compression_enabled: boolean;
  /** `compression.hygiene_hard_message_limit` when the case sets it (2026-07 reads it; 2026-04 fixed 400). */
  hygiene_hard_message_limit?: number;
}

export const adapter: VectorAdapter = {
  inputKeys: () => [
    'history_len',
    'context_length',
    'last_prompt_tokens',
    'rough_tokens',
    'compression_enabled',
    'hygiene_hard_message_limit',
  ],
  run(testCase, preset) {
    const input = testCase.input as HygieneVectorInput;
    const decision = hygieneDecision(
      {
        historyLength: input.history_len,
        contextLength: input.context_length,
        lastPromptTokens: input.last_prompt_tokens,
        roughTokens: input.rough_tokens,
        compressionEnabled: input.compression_enabled,
        hardMessageLimit:
          input.hygiene_hard_message_limit ?? DEFAULT_COMPRESSION_CONFIG.hygieneHardMessageLimit,
      },
      preset,
    );
    if (!decision.runsCheck) return { runs_check: false, needs_compress: false };
    return {
      runs_check: true,
      threshold_tokens: decision.thresholdTokens,
      warn_after_tokens: decision.warnAfterTokens,
      tokens_used: decision.tokensUsed,
      token_source: decision.tokenSource,
      needs_compress: decision.needsCompress,
    };
  },
};
