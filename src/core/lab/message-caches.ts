/**
 * What is derived from one message and never changes, kept per transcript by message identity
 * (messages are immutable): its rough size and its serialised summariser text under each preset,
 * the facts it holds and its pieces of visible text. The planner, the comparison and every session simulation of a
 * transcript share one, so a message is measured, redacted and read for facts once however many
 * strategies plan, compact, replay or assess it.
 */
import type { SummaryTextCache } from '../compression/serialize-for-summary.ts';
import type { VisibleTextsCache } from '../fidelity/collect-visible-texts.ts';
import type { MessageFactsCache } from '../fidelity/extract-facts.ts';
import type { Preset } from '../presets/preset.ts';
import type { PrepareContext } from '../strategies/strategy.ts';
import type { RoughSizeCache } from '../tokens/estimate-messages-tokens-rough.ts';

export interface MessageCaches extends PrepareContext {
  /** What `extractFacts` found in each message it read. */
  readonly facts: MessageFactsCache;
  /** Each message's pieces of visible text, as the fidelity score looks facts up in them. */
  readonly visibleTexts: VisibleTextsCache;
}

/** `sizes`: rough size caches already kept (a counting's), by preset; the rest start empty. */
export function createMessageCaches(sizes = new Map<Preset, RoughSizeCache>()): MessageCaches {
  const texts = new Map<Preset, SummaryTextCache>();
  return {
    sizeCache(preset) {
      let cache = sizes.get(preset);
      if (!cache) sizes.set(preset, (cache = new WeakMap()));
      return cache;
    },
    summaryTextCache(preset) {
      let cache = texts.get(preset);
      if (!cache) texts.set(preset, (cache = new WeakMap()));
      return cache;
    },
    facts: new WeakMap(),
    visibleTexts: new WeakMap(),
  };
}
