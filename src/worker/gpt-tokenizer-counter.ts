import { boundTokenCounter } from '../core/tokens/bound-token-counter.ts';
import type { TokenEncoding } from '../core/tokens/estimator.ts';
import type { TokenCounter } from '../core/tokens/token-counter.ts';
import { createByteRankCounter, type RankEntry } from './byte-rank-counter.ts';

/** What we use of gpt-tokenizer for one encoding. */
interface GptEncoding {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
  /** The rank table the encoding was built from (the same module, not a second copy). */
  ranks: readonly RankEntry[];
  splitPattern: RegExp;
}

// Each encoding carries its 1-2 MB rank table; the dynamic imports give each its own lazy chunk.
const encodingLoaders: Record<TokenEncoding, () => Promise<GptEncoding>> = {
  o200k_base: async () => {
    const [encoding, ranks, patterns] = await Promise.all([
      import('gpt-tokenizer/encoding/o200k_base'),
      import('gpt-tokenizer/bpeRanks/o200k_base'),
      import('gpt-tokenizer/encodingParams/constants'),
    ]);
    return {
      countTokens: encoding.countTokens,
      ranks: ranks.default,
      splitPattern: patterns.O200K_TOKEN_SPLIT_REGEX,
    };
  },
  cl100k_base: async () => {
    const [encoding, ranks, patterns] = await Promise.all([
      import('gpt-tokenizer/encoding/cl100k_base'),
      import('gpt-tokenizer/bpeRanks/cl100k_base'),
      import('gpt-tokenizer/encodingParams/constants'),
    ]);
    return {
      countTokens: encoding.countTokens,
      ranks: ranks.default,
      splitPattern: patterns.CL100K_TOKEN_SPLIT_REGEX,
    };
  },
};

/**
 * The special tokens js-tiktoken (the reference) knows per encoding. A transcript that contains
 * one of these strings counts it as one token, as `encode(text, 'all', [])` does there.
 * gpt-tokenizer's own tables list more (`<|im_start|>` …), which js-tiktoken reads as text, so
 * the list is ours, not the library's.
 */
export const REFERENCE_SPECIAL_TOKENS: Record<TokenEncoding, readonly string[]> = {
  o200k_base: ['<|endoftext|>', '<|endofprompt|>'],
  cl100k_base: ['<|endoftext|>', '<|fim_prefix|>', '<|fim_middle|>', '<|fim_suffix|>', '<|endofprompt|>'],
};

const BYTE_ORDER_MARK = '\ufeff';

/** Nothing is disallowed: special-token text must never make a count throw. */
const PLAIN_TEXT_OPTIONS = { disallowedSpecial: new Set<string>() };

const modules = new Map<TokenEncoding, Promise<GptEncoding>>();
/** Built on first need only: keying 200k ranks by bytes takes a few hundred milliseconds. */
const byteRankCounters = new Map<TokenEncoding, (text: string) => number>();

function loadEncoding(encoding: TokenEncoding): Promise<GptEncoding> {
  let loaded = modules.get(encoding);
  if (!loaded) {
    loaded = encodingLoaders[encoding]();
    // A failed load (e.g. a network error in dev) must not poison later attempts.
    loaded.catch(() => modules.delete(encoding));
    modules.set(encoding, loaded);
  }
  return loaded;
}

/**
 * Counts with gpt-tokenizer, which gives js-tiktoken's counts about 9× faster (stack.md §7;
 * tests/worker/gpt-tokenizer-counter.test.ts holds the two equal). Two gaps in gpt-tokenizer
 * 4.0.0 are closed here: it recognises a special token only at the very start of the text, so
 * special tokens are split out first; and it miscounts text containing U+FEFF, which goes
 * through the exact byte-level merge instead (rare: byte-order marks in read files). Work is
 * linear in the text: a run of one character class longer than 256 characters is counted in
 * parts (`boundTokenCounter`), the only text whose count can differ from js-tiktoken's.
 */
export async function createGptTokenizerCounter(encoding: TokenEncoding): Promise<TokenCounter> {
  const gpt = await loadEncoding(encoding);
  const specialPattern = new RegExp(REFERENCE_SPECIAL_TOKENS[encoding].map(escapeRegExp).join('|'), 'g');
  // Bounded: both merges are superlinear in the length of one piece, and an unbroken run of a
  // million characters is one piece (see nextCountingCut).
  const plain = boundTokenCounter({
    count(text) {
      if (text === '') return 0;
      if (!text.includes(BYTE_ORDER_MARK)) return gpt.countTokens(text, PLAIN_TEXT_OPTIONS);
      let byteRankCount = byteRankCounters.get(encoding);
      if (!byteRankCount) {
        byteRankCount = createByteRankCounter(gpt.ranks, gpt.splitPattern);
        byteRankCounters.set(encoding, byteRankCount);
      }
      return byteRankCount(text);
    },
  });
  const countPlain = (text: string): number => plain.count(text);
  return {
    count(text) {
      // Every special token starts with "<|": one native scan rules them out for almost all text.
      if (!text.includes('<|')) return countPlain(text);
      let tokens = 0;
      let start = 0;
      for (const match of text.matchAll(specialPattern)) {
        tokens += countPlain(text.slice(start, match.index)) + 1;
        start = match.index + match[0].length;
      }
      return tokens + countPlain(text.slice(start));
    },
  };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
