/**
 * The small pure helpers of the turn-prologue preflight (hermes-reference §4.1,
 * `agent/turn_context.py`): when to estimate at all, and whether a pass made progress or
 * warrants another one. Vectors: the `helper_*` cases of anti_thrash_gates.json.
 */

/** A pass made progress when it removed rows or cut the estimate below 95% of before. */
export function compressionMadeProgress(
  before: { readonly messageCount: number; readonly tokens: number },
  after: { readonly messageCount: number; readonly tokens: number },
): boolean {
  return after.messageCount < before.messageCount || after.tokens < before.tokens * 0.95;
}

/** Another pass only when still over the threshold and the last pass cut more than 5%. */
export function warrantsAnotherPreflightPass(
  tokensBefore: number,
  tokensAfter: number,
  thresholdTokens: number,
): boolean {
  return tokensAfter >= thresholdTokens && tokensAfter < tokensBefore * 0.95;
}

/**
 * The cheap gate before a preflight estimate: enough messages to have a middle, or few but
 * huge messages already over the threshold by the rough message estimate.
 */
export function shouldRunPreflightEstimate(input: {
  readonly messageCount: number;
  readonly roughMessageTokens: () => number;
  readonly protectFirstN: number;
  readonly protectLastN: number;
  readonly thresholdTokens: number;
}): boolean {
  if (input.messageCount > input.protectFirstN + input.protectLastN + 1) return true;
  return input.roughMessageTokens() >= input.thresholdTokens;
}
