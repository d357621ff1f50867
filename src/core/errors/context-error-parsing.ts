import type { Preset } from '../presets/preset.ts';

/**
 * Reading numbers out of provider overflow errors (`agent/model_metadata.py`,
 * hermes-reference §7.2).
 */

/** The first of the preset's descending window guesses below `contextLength`, or null at the bottom. */
export function getNextProbeTier(contextLength: number, preset: Preset): number | null {
  return preset.recovery.contextProbeTiers.find((tier) => tier < contextLength) ?? null;
}

const MINIMUM_PLAUSIBLE_CONTEXT_TOKENS = 1024;
const MAXIMUM_PLAUSIBLE_CONTEXT_TOKENS = 10_000_000;

const VLLM_LIMIT_PATTERNS: readonly RegExp[] = [
  /max_model_len\s*(?:is\s*)?[:=(]?\s*(\d{4,})/,
  /maximum model length\s*(?:is\s*)?[:=(]?\s*(\d{4,})/,
];

const LIMIT_PATTERNS: readonly RegExp[] = [
  /(?:max(?:imum)?|limit)\s*(?:context\s*)?(?:length|size|window)?\s*(?:is|of|:)?\s*(\d{4,})/,
  /context\s*(?:length|size|window)\s*(?:is|of|:)?\s*(\d{4,})/,
  /(\d{4,})\s*(?:token)?\s*(?:context|limit)/,
  />\s*(\d{4,})\s*(?:max|limit|token)/,
  /(\d{4,})\s*(?:max(?:imum)?)\b/,
];

/**
 * The context limit an error states, e.g. `maximum context length is 32768 tokens` → 32768.
 * Each pattern is tried in order; the first one whose first match is a plausible window
 * (1,024 … 10,000,000) wins. 2026-04 did not know vLLM's `max_model_len` wording.
 */
export function parseContextLimitFromError(message: string, preset: Preset): number | null {
  return parseLimit(message, preset.recovery.parsesServerLimitWording);
}

function parseLimit(message: string, readsServerWording: boolean): number | null {
  const lower = message.toLowerCase();
  const patterns = readsServerWording ? [...VLLM_LIMIT_PATTERNS, ...LIMIT_PATTERNS] : LIMIT_PATTERNS;
  for (const pattern of patterns) {
    const match = pattern.exec(lower);
    if (!match) continue;
    const limit = Number(match[1]);
    if (limit >= MINIMUM_PLAUSIBLE_CONTEXT_TOKENS && limit <= MAXIMUM_PLAUSIBLE_CONTEXT_TOKENS) return limit;
  }
  return null;
}

/**
 * A provider-reported limit below the current window, else null. Overflow recovery never
 * invents a window size: without a stated number it keeps the window and compresses.
 */
export function getContextLengthFromProviderError(
  message: string,
  currentContextLength: number,
): number | null {
  // Only the generation with this helper calls it, and that generation reads server wording.
  const parsed = parseLimit(message, true);
  return parsed !== null && parsed < currentContextLength ? parsed : null;
}

/**
 * Output tokens that would still fit, when the error says the requested `max_tokens` (not the
 * input) is too large; null otherwise. 2026-04 understood only Anthropic's
 * `… = available_tokens: N`.
 */
export function parseAvailableOutputTokensFromError(message: string, preset: Preset): number | null {
  const lower = message.toLowerCase();
  const anthropicShape =
    lower.includes('max_tokens') &&
    (lower.includes('available_tokens') || lower.includes('available tokens'));
  if (preset.recovery.outputCapErrors === 'anthropic-available-tokens')
    return anthropicShape ? anthropicAvailable(lower) : null;

  const openRouterShape = lower.includes('in the output') && lower.includes('maximum context length');
  const requestedOutputShape =
    lower.includes('maximum context length') &&
    lower.includes('requested') &&
    lower.includes('output tokens');
  const dashScopeShape = lower.includes('range of max_tokens should be');
  if (!anthropicShape && !openRouterShape && !requestedOutputShape && !dashScopeShape) return null;

  const range = /range of max_tokens should be\s*\[\s*\d+\s*,\s*(\d+)\s*\]/.exec(lower);
  if (range && Number(range[1]) >= 1) return Number(range[1]);

  const anthropic = anthropicAvailable(lower);
  if (anthropic !== null) return anthropic;

  // OpenRouter: "maximum context length is N … (A of text input, B of tool input, C in the output)".
  const window = /maximum context length is (\d+)/.exec(lower);
  const split = /\((\d+)\s+of text input,\s*(\d+)\s+of tool input,\s*(\d+)\s+in the output\)/.exec(lower);
  if (window && split) {
    const available = Number(window[1]) - Number(split[1]) - Number(split[2]);
    if (available >= 1) return available;
  }

  // LM Studio reports the prompt in characters: assume 3 characters per token (rounded up).
  const windowTokens = /maximum context length is (\d+)\s*token/.exec(lower);
  const characters = /prompt contains (\d+)\s*character/.exec(lower);
  if (windowTokens && characters) {
    const available = Number(windowTokens[1]) - Math.floor((Number(characters[1]) + 2) / 3);
    if (available >= 1) return available;
  }

  // vLLM reports the prompt in tokens.
  const inputTokens = /prompt contains (?:at least )?(\d+)\s*input tokens/.exec(lower);
  if (windowTokens && inputTokens) {
    const available = Number(windowTokens[1]) - Number(inputTokens[1]);
    if (available >= 1) return available;
  }
  return null;
}

function anthropicAvailable(lower: string): number | null {
  for (const pattern of [/available_tokens[:\s]+(\d+)/, /available\s+tokens[:\s]+(\d+)/, /=\s*(\d+)\s*$/]) {
    const match = pattern.exec(lower);
    if (match && Number(match[1]) >= 1) return Number(match[1]);
  }
  return null;
}

/**
 * True when the error is about the output cap (`max_tokens` and its aliases) rather than an
 * oversized input: compression cannot fix it, so the loop must not compress.
 */
export function isOutputCapError(message: string): boolean {
  const lower = message.toLowerCase();
  const mentionsOutputParameter =
    lower.includes('max_tokens') ||
    lower.includes('max_output_tokens') ||
    lower.includes('max_completion_tokens');
  if (!mentionsOutputParameter) return false;
  const outputCapSignal =
    lower.includes('range of max_tokens should be') ||
    lower.includes('available_tokens') ||
    lower.includes('available tokens') ||
    (lower.includes('in the output') && lower.includes('maximum context length')) ||
    (lower.includes('requested') && lower.includes('output tokens')) ||
    lower.includes('should be') ||
    lower.includes('less than or equal') ||
    lower.includes('must be');
  if (!outputCapSignal) return false;
  const inputOverflowSignal = [
    'prompt is too long',
    'prompt too long',
    'input is too long',
    'input token',
    'prompt length',
    'prompt contains',
    'reduce the length',
  ].some((signal) => lower.includes(signal));
  return !inputOverflowSignal;
}
