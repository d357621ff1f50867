/**
 * The context of a simulated session as it grows: the messages so far, each one's tokens in the
 * given counting, and running totals, so a request's size costs O(1) however long the session
 * is. Only a compaction replaces the list (and re-sums it once).
 */
import type { Preset } from '../presets/preset.ts';
import {
  roughMessageSize,
  type RoughMessageSize,
  type RoughSizeCache,
} from '../tokens/estimate-messages-tokens-rough.ts';
import { roughRequestTokensFromSizes } from '../tokens/estimate-request-tokens-rough.ts';
import { toolsChars } from '../tokens/estimate-tools-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';

export interface SimulatedContext {
  readonly messages: readonly Message[];
  /** Tokens of `messages[i]` in the given counting. */
  readonly tokens: readonly number[];
  append(message: Message): void;
  /** The context a compaction produced. */
  replace(messages: readonly Message[]): void;
  /** Σ tokens of the messages (tool schemas not included). */
  messageTokens(): number;
  /** Hermes' `estimate_request_tokens_rough(messages, '', tools)` under the preset (when tracked). */
  roughRequestTokens(): number;
}

export interface SimulatedContextOptions {
  readonly tools: readonly ToolSchema[];
  readonly tokensOf: (message: Message) => number;
  /** Track Hermes' rough request estimate under this preset (null: not needed, not measured). */
  readonly roughPreset: Preset | null;
  readonly sizeCache?: RoughSizeCache;
}

export function createSimulatedContext(options: SimulatedContextOptions): SimulatedContext {
  const { tokensOf, roughPreset } = options;
  const sizeCache: RoughSizeCache = options.sizeCache ?? new WeakMap();
  const toolCharCount = roughPreset ? toolsChars(options.tools, roughPreset) : 0;
  let messages: Message[] = [];
  let tokens: number[] = [];
  let total = 0;
  let chars = 0;
  let images = 0;

  const sizeOf = (message: Message, preset: Preset): RoughMessageSize => {
    let size = sizeCache.get(message);
    if (!size) {
      size = roughMessageSize(message, preset);
      sizeCache.set(message, size);
    }
    return size;
  };
  const add = (message: Message): void => {
    const count = tokensOf(message);
    messages.push(message);
    tokens.push(count);
    total += count;
    if (roughPreset) {
      const size = sizeOf(message, roughPreset);
      chars += size.chars;
      images += size.images;
    }
  };

  return {
    get messages() {
      return messages;
    },
    get tokens() {
      return tokens;
    },
    append: add,
    replace(next) {
      messages = [];
      tokens = [];
      total = 0;
      chars = 0;
      images = 0;
      for (const message of next) add(message);
    },
    messageTokens: () => total,
    roughRequestTokens: () =>
      roughPreset
        ? roughRequestTokensFromSizes(
            { chars, images, count: messages.length },
            '',
            toolCharCount,
            roughPreset,
          )
        : 0,
  };
}
