import { pythonLength } from './python-length.ts';

/** Hermes assumes about 4 characters per token everywhere. */
export const CHARS_PER_TOKEN = 4;

/**
 * Hermes `estimate_tokens_rough(text)`: 0 for empty text, else `ceil(len / 4)`, with `len`
 * in code points as Python counts it.
 */
export function estimateTokensRough(text: string): number {
  if (!text) return 0;
  return Math.floor((pythonLength(text) + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN);
}

/** `(chars + 3) // 4`: the rounding Hermes applies to a character total. */
export const roughTokensFromChars = (chars: number): number =>
  Math.floor((chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN);
