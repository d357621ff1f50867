import { DEFAULT_COMPRESSION_CONFIG } from '../../../core/config/compression-config.ts';
import { hygieneDecision } from '../../../core/compression/hygiene-decision.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface HygieneVectorInput {
  history_len: number;
  context_length: number;
  last_prompt_tokens: number;
  rough_tokens: number;
  compression_enabled: boolean;
}

export const adapter: VectorAdapter = {
  run(testCase, preset) {
    const input = testCase.input as HygieneVectorInput;
    const decision = hygieneDecision(
      {
        historyLength: input.history_len,
        contextLength: input.context_length,
        lastPromptTokens: input.last_prompt_tokens,
        roughTokens: input.rough_tokens,
        compressionEnabled: input.compression_enabled,
        hardMessageLimit: DEFAULT_COMPRESSION_CONFIG.hygieneHardMessageLimit,
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
