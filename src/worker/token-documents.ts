import { MESSAGE_OVERHEAD_TOKENS, messageCountingText } from '../core/tokens/count-message-tokens.ts';
import type { TokenEncoding } from '../core/tokens/estimator.ts';
import { nextCountingCut } from '../core/tokens/next-counting-cut.ts';
import type { TokenCounter } from '../core/tokens/token-counter.ts';
import type { Message } from '../core/transcript/message.ts';

/**
 * Transcripts the worker holds so that a recount after a new turn costs one message, not the
 * whole conversation: counts are kept per message index and per encoding, and totals are
 * maintained incrementally. A second cache keyed by the message's text lets a reopened or
 * re-imported transcript skip messages it has already tokenised.
 */
interface TokenDocument {
  messages: Message[];
  exactByEncoding: Map<TokenEncoding, { perMessage: number[]; total: number }>;
  /** A long message counted part of the way when the last step paused. */
  partial?: PartialCount;
}

/** Where counting a long message stopped: `offset` into its text, `tokens` so far. */
interface PartialCount {
  encoding: TokenEncoding;
  message: Message;
  text: string;
  offset: number;
  tokens: number;
}

/**
 * A message text longer than this is counted in parts of about this size, cut where the count
 * does not change (`nextCountingCut`), and a step may pause between parts: one 10 MB tool
 * output must not hold a plan request for the seconds its count takes.
 */
export const COUNTING_SLICE_CHARS = 16_384;

export interface ExactCounts {
  perMessage: number[];
  total: number;
  /** How many messages were actually run through the tokenizer for this call. */
  tokenized: number;
}

/** Beyond this many characters of cached keys the text cache starts over (memory bound). */
const TEXT_CACHE_MAX_CHARS = 64 * 1024 * 1024;

export class TokenDocuments {
  readonly #documents = new Map<string, TokenDocument>();
  readonly #countsByText = new Map<TokenEncoding, Map<string, number>>();
  #cachedTextChars = 0;

  open(documentId: string, messages: Message[]): void {
    this.#documents.set(documentId, { messages: [...messages], exactByEncoding: new Map() });
  }

  append(documentId: string, messages: Message[]): void {
    this.#require(documentId).messages.push(...messages);
  }

  /** Replaces messages from `start` on (an edit or a compaction), keeping counts before it. */
  replaceFrom(documentId: string, start: number, messages: Message[]): void {
    const document = this.#require(documentId);
    document.messages.length = Math.min(start, document.messages.length);
    document.messages.push(...messages);
    for (const counts of document.exactByEncoding.values()) {
      const kept = Math.min(start, counts.perMessage.length);
      for (let i = kept; i < counts.perMessage.length; i++) counts.total -= counts.perMessage[i]!;
      counts.perMessage.length = kept;
    }
  }

  close(documentId: string): void {
    this.#documents.delete(documentId);
  }

  messageCount(documentId: string): number {
    return this.#require(documentId).messages.length;
  }

  /** The document's messages (the worker's own copy; callers must not mutate it). */
  messages(documentId: string): readonly Message[] {
    return this.#require(documentId).messages;
  }

  /** Per-message exact counts when every message has been counted for `encoding`, else null. */
  completeCounts(
    documentId: string,
    encoding: TokenEncoding,
  ): { perMessage: readonly number[]; total: number } | null {
    const document = this.#documents.get(documentId);
    const counts = document?.exactByEncoding.get(encoding);
    return counts && counts.perMessage.length === document!.messages.length ? counts : null;
  }

  /**
   * Exact counts for every message, tokenising only messages not counted before. Reports
   * progress every `progressEvery` messages so a long first count can show a bar.
   */
  countExact(
    documentId: string,
    encoding: TokenEncoding,
    counter: TokenCounter,
    onProgress?: (done: number, total: number) => void,
    progressEvery = 500,
  ): ExactCounts {
    const step = this.countExactStep(documentId, encoding, counter, () => false, onProgress, progressEvery);
    const counts = this.completeCounts(documentId, encoding)!;
    return { perMessage: counts.perMessage.slice(), total: counts.total, tokenized: step.tokenized };
  }

  /**
   * Counts on from where the last call stopped until `shouldPause()` says so (checked between
   * messages), so a long count can yield and let other requests (a plan) run in between.
   */
  countExactStep(
    documentId: string,
    encoding: TokenEncoding,
    counter: TokenCounter,
    shouldPause: () => boolean,
    onProgress?: (done: number, total: number) => void,
    progressEvery = 500,
  ): { done: number; total: number; tokenized: number } {
    const document = this.#require(documentId);
    let counts = document.exactByEncoding.get(encoding);
    if (!counts) {
      counts = { perMessage: [], total: 0 };
      document.exactByEncoding.set(encoding, counts);
    }
    const textCache = this.#textCache(encoding);
    let tokenized = 0;
    const total = document.messages.length;
    for (let i = counts.perMessage.length; i < total; i++) {
      const message = document.messages[i]!;
      const resumed = document.partial?.message === message && document.partial.encoding === encoding;
      const text = resumed ? document.partial!.text : messageCountingText(message);
      let tokens = resumed ? undefined : textCache.get(text);
      if (tokens === undefined) {
        const counted = this.#countText(document, encoding, message, text, counter, shouldPause);
        if (counted === null) break;
        tokens = counted + MESSAGE_OVERHEAD_TOKENS;
        tokenized += 1;
        this.#remember(textCache, text, tokens);
      }
      counts.perMessage.push(tokens);
      counts.total += tokens;
      if (onProgress && (i + 1) % progressEvery === 0) onProgress(i + 1, total);
      if (shouldPause()) break;
    }
    return { done: counts.perMessage.length, total, tokenized };
  }

  /**
   * Tokens of one message's text. A long text is counted part by part, resuming where a paused
   * step left it; null when `shouldPause()` stopped it before the end (progress is kept).
   */
  #countText(
    document: TokenDocument,
    encoding: TokenEncoding,
    message: Message,
    text: string,
    counter: TokenCounter,
    shouldPause: () => boolean,
  ): number | null {
    if (text.length <= COUNTING_SLICE_CHARS) return counter.count(text);
    const partial =
      document.partial?.message === message && document.partial.encoding === encoding
        ? document.partial
        : { encoding, message, text, offset: 0, tokens: 0 };
    document.partial = undefined;
    while (partial.offset < text.length) {
      const end = nextCountingCut(text, partial.offset, COUNTING_SLICE_CHARS);
      partial.tokens += counter.count(text.slice(partial.offset, end));
      partial.offset = end;
      if (partial.offset < text.length && shouldPause()) {
        document.partial = partial;
        return null;
      }
    }
    return partial.tokens;
  }

  #textCache(encoding: TokenEncoding): Map<string, number> {
    let cache = this.#countsByText.get(encoding);
    if (!cache) {
      cache = new Map();
      this.#countsByText.set(encoding, cache);
    }
    return cache;
  }

  #remember(cache: Map<string, number>, text: string, tokens: number): void {
    if (this.#cachedTextChars + text.length > TEXT_CACHE_MAX_CHARS) {
      for (const other of this.#countsByText.values()) other.clear();
      this.#cachedTextChars = 0;
    }
    cache.set(text, tokens);
    this.#cachedTextChars += text.length;
  }

  #require(documentId: string): TokenDocument {
    const document = this.#documents.get(documentId);
    if (!document) throw new Error(`No open token document '${documentId}'`);
    return document;
  }
}
