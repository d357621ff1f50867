import type { PresetName } from '../core/presets/preset-name.ts';
import type { TokenEncoding } from '../core/tokens/estimator.ts';
import { estimateMessagesTokensRough } from '../core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../core/transcript/message.ts';
import { createTiktokenCounter } from './tiktoken-counter.ts';
import { TokenDocuments, type ExactCounts } from './token-documents.ts';

const documents = new TokenDocuments();

export interface RoughCounts {
  perMessage: number[];
  total: number;
}

function roughCounts(messages: readonly Message[], preset: PresetName): RoughCounts {
  const perMessage = messages.map((message) => estimateMessagesTokensRough([message], preset));
  return { perMessage, total: estimateMessagesTokensRough(messages, preset) };
}

/**
 * Everything the page asks of the worker. Plain data in and out (structured clone);
 * callbacks arrive as comlink proxies.
 */
export const computeApi = {
  /** Opens (or replaces) a transcript held by the worker and returns its rough counts. */
  openDocument(documentId: string, messages: Message[], preset: PresetName): RoughCounts {
    documents.open(documentId, messages);
    return roughCounts(messages, preset);
  },

  /** Appends new turns; returns the rough counts of the appended messages only. */
  appendMessages(documentId: string, messages: Message[], preset: PresetName): RoughCounts {
    documents.append(documentId, messages);
    return roughCounts(messages, preset);
  },

  closeDocument(documentId: string): void {
    documents.close(documentId);
  },

  /** Exact per-message counts; only messages not counted before are tokenised. */
  async countExact(
    documentId: string,
    encoding: TokenEncoding,
    onProgress?: (done: number, total: number) => void,
  ): Promise<ExactCounts & { elapsedMs: number }> {
    const counter = await createTiktokenCounter(encoding);
    const started = performance.now();
    const counts = documents.countExact(documentId, encoding, counter, onProgress);
    return { ...counts, elapsedMs: performance.now() - started };
  },

  /** Exact tokens of one text (benchmarks, the chat input). */
  async countText(text: string, encoding: TokenEncoding): Promise<number> {
    const counter = await createTiktokenCounter(encoding);
    return counter.count(text);
  },
};

export type ComputeApi = typeof computeApi;
