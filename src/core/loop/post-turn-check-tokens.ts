import type { CompressorState } from '../compression/compressor-state.ts';

/**
 * The token count the post-tool-turn check judges (hermes-reference §2, §4.3): the provider's
 * last prompt count (canonical prompt, cache reads and writes included; never completion or
 * reasoning tokens) when one is known; 0 right after a compaction (the −1 sentinel: no real
 * reading yet, so the check never fires); a rough request estimate when no usage was reported.
 */
export function postTurnCheckTokens(state: CompressorState, roughRequestTokens: () => number): number {
  if (state.lastPromptTokens > 0) return state.lastPromptTokens;
  if (state.lastPromptTokens < 0) return 0;
  return roughRequestTokens();
}
