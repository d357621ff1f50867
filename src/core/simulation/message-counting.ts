/**
 * How the session simulation and the comparison count tokens: the transcript's per-message
 * counts the caller already has (exact when an encoding counted them all, else the host's rough
 * estimate, as the context map shows them), and the same counting for messages a compaction
 * writes (summaries, shortened copies). One counting for every strategy, so their figures
 * share one axis; only Hermes' trigger decides on its own rough estimate, as Hermes does.
 */
import { HOST_PRESET } from '../strategies/strategy-kit.ts';
import type { Preset } from '../presets/preset.ts';
import { estimateMessageTokensRough, type RoughSizeCache } from '../tokens/estimate-messages-tokens-rough.ts';
import { estimateTokensRough } from '../tokens/estimate-tokens-rough.ts';
import { measureRoughTokens } from '../tokens/measure-rough-tokens.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';

export interface MessageCounting {
  /** Tokens of each transcript message, by index. */
  readonly perMessage: ArrayLike<number>;
  /** Tokens of the tool schemas sent with every request. */
  readonly toolsTokens: number;
  /** Whether these are an encoding's counts rather than a character estimate. */
  readonly exact: boolean;
  /** A message that is not in the transcript, counted the same way. */
  readonly countMessage: (message: Message) => number;
  /** A text (a summariser prompt or answer), counted the same way. */
  readonly countText: (text: string) => number;
}

/**
 * The host's rough estimate as the counting: what the lab shows before exact counts arrive, each
 * transcript message its share of the one rounding (`measureRoughTokens`, the map's counts).
 */
export function roughMessageCounting(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  preset: Preset = HOST_PRESET,
  sizeCache?: RoughSizeCache,
): MessageCounting {
  const { perMessage, toolsTokens } = measureRoughTokens(messages, tools, preset, sizeCache);
  return {
    perMessage,
    toolsTokens,
    exact: false,
    countMessage: (message) => estimateMessageTokensRough(message, preset, sizeCache),
    countText: estimateTokensRough,
  };
}

/**
 * Tokens of any message in the counting: a transcript message (found by identity, since
 * compactions keep the messages they keep as the same objects) from the per-message counts,
 * any other message counted once and remembered.
 */
export function messageTokenLookup(
  messages: readonly Message[],
  counting: MessageCounting,
): (message: Message) => number {
  const indexOf = new Map<Message, number>();
  for (let index = 0; index < messages.length; index++) indexOf.set(messages[index]!, index);
  const written = new WeakMap<Message, number>();
  return (message) => {
    const index = indexOf.get(message);
    if (index !== undefined) return counting.perMessage[index] ?? 0;
    let tokens = written.get(message);
    if (tokens === undefined) {
      tokens = counting.countMessage(message);
      written.set(message, tokens);
    }
    return tokens;
  };
}
