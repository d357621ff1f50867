import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import { roughTokensFromSizes, type RoughSizeCache } from './estimate-messages-tokens-rough.ts';
import {
  roughRequestTokensFromSizes,
  sumRoughMessageSizes,
  type RoughMessagesTotal,
} from './estimate-request-tokens-rough.ts';
import { toolsChars } from './estimate-tools-tokens-rough.ts';
import { roughTokensFromChars } from './estimate-tokens-rough.ts';

/** A transcript counted message by message with a preset's rough estimator. */
export interface RoughTokenCounts {
  /** Each message's share of the messages' estimate (`roughShareOf`). */
  readonly perMessage: Int32Array;
  /** `estimate_messages_tokens_rough(messages)`: the shares added up. */
  readonly messagesTokens: number;
  /** `_estimate_tools_tokens_rough(tools)`: the tool schemas rounded on their own. */
  readonly toolsTokens: number;
  /**
   * `estimate_request_tokens_rough(messages, '', tools)`, what Hermes' preflight decides on:
   * the messages' and the tools' estimates added up (2026-07), or one rounding over both
   * (2026-04: up to a token less than the sum).
   */
  readonly requestTokens: number;
  /** The messages' sizes summed, from which the estimates above are rounded. */
  readonly sizes: RoughMessagesTotal;
}

/**
 * The rough basis the planner draws the map on and strategies decide on when the caller has
 * no counts of its own, so a plan and the compaction after it see the same numbers (a rule that
 * depends on them, Cline's half or three quarters, Anthropic's triggers, would otherwise decide
 * differently in each). Each message counts as its share of Hermes' single rounding over all
 * the messages, so the map's total, the message list's and the gauge's are one number: each
 * message rounded on its own added up to a few tokens more than the estimate Hermes decides on.
 */
export function measureRoughTokens(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  preset: Preset,
  cache?: RoughSizeCache,
): RoughTokenCounts {
  const perMessage = new Int32Array(messages.length);
  const sizes = sumRoughMessageSizes(messages, preset, cache, perMessage);
  const toolCharacters = toolsChars(tools, preset);
  return {
    perMessage,
    messagesTokens: roughTokensFromSizes(sizes.chars, sizes.images),
    toolsTokens: roughTokensFromChars(toolCharacters),
    requestTokens: roughRequestTokensFromSizes(sizes, '', toolCharacters, preset),
    sizes,
  };
}
