import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import { estimateMessageTokensRough, type RoughSizeCache } from './estimate-messages-tokens-rough.ts';
import { estimateToolsTokensRough } from './estimate-tools-tokens-rough.ts';

/** A transcript counted message by message with a preset's rough estimator. */
export interface RoughTokenCounts {
  /** Each message's estimate, rounded on its own. */
  readonly perMessage: Int32Array;
  /** The tool schemas' estimate. */
  readonly toolsTokens: number;
  /** The request: every message's estimate plus the tool schemas'. */
  readonly requestTokens: number;
}

/**
 * The rough basis the planner draws the map on and strategies decide on when the caller has
 * no counts of its own. The request is the sum of the per-message figures, not Hermes' single
 * rounding over the whole request (`estimateRequestTokensRough`, a few tokens less): a plan and
 * the compaction after it must see the same number, or a rule that depends on it (Cline's half
 * or three quarters, Anthropic's triggers) can decide differently in each.
 */
export function measureRoughTokens(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  preset: Preset,
  cache?: RoughSizeCache,
): RoughTokenCounts {
  const perMessage = new Int32Array(messages.length);
  let messagesTokens = 0;
  for (let index = 0; index < messages.length; index++) {
    perMessage[index] = estimateMessageTokensRough(messages[index]!, preset, cache);
    messagesTokens += perMessage[index]!;
  }
  const toolsTokens = estimateToolsTokensRough(tools, preset);
  return { perMessage, toolsTokens, requestTokens: messagesTokens + toolsTokens };
}
