import { Tiktoken } from 'js-tiktoken/lite';
import type { TokenEncoding } from '../core/tokens/estimator.ts';
import type { TokenCounter } from '../core/tokens/token-counter.ts';
import { createGptTokenizerCounter } from './gpt-tokenizer-counter.ts';

// Each rank table is 1-2 MB; the dynamic imports put each in its own chunk that loads on first use.
const rankLoaders: Record<
  TokenEncoding,
  () => Promise<{ default: ConstructorParameters<typeof Tiktoken>[0] }>
> = {
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
};

const encoders = new Map<TokenEncoding, Promise<Tiktoken>>();

/** The js-tiktoken encoder for an encoding, loaded once and shared by every caller. */
export function loadEncoder(encoding: TokenEncoding): Promise<Tiktoken> {
  let encoder = encoders.get(encoding);
  if (!encoder) {
    encoder = rankLoaders[encoding]().then((module) => new Tiktoken(module.default));
    // A failed load (e.g. a network error in dev) must not poison later attempts.
    encoder.catch(() => encoders.delete(encoding));
    encoders.set(encoding, encoder);
  }
  return encoder;
}

/**
 * The exact counter the worker uses for a tiktoken encoding. It is gpt-tokenizer: js-tiktoken
 * reached only ~0.15M tokens/s in a Chromium worker, far below the 1M tokens/s of SPEC §7,
 * and gpt-tokenizer gives the same counts several times faster (tests/worker hold them equal).
 */
export const createTiktokenCounter = (encoding: TokenEncoding): Promise<TokenCounter> =>
  createGptTokenizerCounter(encoding);

/**
 * js-tiktoken, OpenAI's tiktoken ported to JS: the reference the fast counter is checked
 * against, and the baseline of the benchmark. Special-token text such as "<|endoftext|>" is
 * counted as that one special token, and never makes the count throw.
 */
export async function createReferenceTiktokenCounter(encoding: TokenEncoding): Promise<TokenCounter> {
  const encoder = await loadEncoder(encoding);
  return { count: (text) => encoder.encode(text, 'all', []).length };
}
