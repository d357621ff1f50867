import type { Preset } from '../core/presets/preset.ts';
import {
  cachedRoughMessageSize,
  type RoughMessageSize,
  type RoughSizeCache,
} from '../core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../core/transcript/message.ts';

/** Summed rough sizes of a document's first `count` messages under one preset. */
interface Sums extends RoughMessageSize {
  count: number;
}

/**
 * A growing document's summed rough sizes by preset (what `estimate_messages_tokens_rough`
 * rounds once), kept as running sums of its messages' sizes, so a new turn adds its own size
 * instead of walking the whole transcript (a 50,000-message document's append took 6.5 ms when
 * it built the planner's whole rough basis for the total). The sums cover a prefix of the
 * messages and are extended to the current length when read: a document's messages only ever
 * grow (a new one is opened otherwise).
 */
export class RoughTotals {
  readonly #sums = new Map<Preset, Sums>();

  /** The characters and images of all `messages`, summed. */
  sizes(messages: readonly Message[], preset: Preset, cache: RoughSizeCache): RoughMessageSize {
    let sums = this.#sums.get(preset);
    if (sums === undefined || sums.count > messages.length) {
      sums = { count: 0, chars: 0, images: 0 };
      this.#sums.set(preset, sums);
    }
    for (; sums.count < messages.length; sums.count++) {
      const size = cachedRoughMessageSize(messages[sums.count]!, preset, cache);
      sums.chars += size.chars;
      sums.images += size.images;
    }
    return { chars: sums.chars, images: sums.images };
  }
}
