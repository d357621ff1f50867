import { Tiktoken } from 'js-tiktoken/lite';
import type { TokenEncoding } from '../core/tokens/estimator.ts';
import type { TokenCounter } from '../core/tokens/token-counter.ts';

// Each rank table is 1-2 MB; the dynamic imports put each in its own chunk that loads on first use.
const rankLoaders: Record<
  TokenEncoding,
  () => Promise<{ default: ConstructorParameters<typeof Tiktoken>[0] }>
> = {
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
};

const encoders = new Map<TokenEncoding, Promise<Tiktoken>>();

/** The encoder for an encoding, loaded once and shared by every caller. */
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

export async function createTiktokenCounter(encoding: TokenEncoding): Promise<TokenCounter> {
  const encoder = await loadEncoder(encoding);
  return {
    // Special-token text such as "<|endoftext|>" inside a transcript is ordinary text to us.
    count: (text) => encoder.encode(text, 'all', []).length,
  };
}
