import type { CompressorState } from '../compression/compressor-state.ts';

/**
 * What Hermes' `update_model` forgets when the context window changes (hermes-reference §3):
 * every prompt reading and rough baseline belonged to the old window, so they go to zero, and
 * the anti-thrash verdict starts over. The summary, compaction count, cooldown and fallback
 * streak are about the conversation, not the window, and stay.
 */
export function resetCalibration(state: CompressorState): CompressorState {
  return {
    ...state,
    lastPromptTokens: 0,
    lastCompletionTokens: 0,
    lastTotalTokens: 0,
    lastRealPromptTokens: 0,
    lastCompressionRoughTokens: 0,
    lastRoughTokensWhenRealPromptFit: 0,
    awaitingRealUsageAfterCompression: false,
    ineffectiveCount: 0,
    verifyCompactionClearedThreshold: false,
  };
}
