import type { Preset } from '../presets/preset.ts';
import { assertNever } from '../shared/assert-never.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import {
  cachedRoughMessageSize,
  estimateMessagesTokensRough,
  type RoughSizeCache,
} from './estimate-messages-tokens-rough.ts';
import { estimateTokensRough, roughTokensFromChars } from './estimate-tokens-rough.ts';
import { estimateToolsTokensRough, toolsChars } from './estimate-tools-tokens-rough.ts';
import { pythonLength } from './python-length.ts';

/**
 * Hermes `estimate_request_tokens_rough(messages, system_prompt, tools)`: the whole request.
 * 2026-07 rounds system prompt, messages and tools separately; 2026-04 adds the raw character
 * counts (`len(system) + Σ len(str(msg)) + len(str(tools))`) and rounds once.
 */
export function estimateRequestTokensRough(
  messages: readonly Message[],
  systemPrompt: string,
  tools: readonly ToolSchema[] | null | undefined,
  preset: Preset,
  cache?: RoughSizeCache,
): number {
  const mode = preset.estimation.requestRounding;
  switch (mode) {
    case 'per-term':
      return (
        estimateTokensRough(systemPrompt) +
        (messages.length > 0 ? estimateMessagesTokensRough(messages, preset, cache) : 0) +
        estimateToolsTokensRough(tools, preset)
      );
    case 'once': {
      let chars = systemPrompt ? pythonLength(systemPrompt) : 0;
      for (const message of messages) chars += cachedRoughMessageSize(message, preset, cache).chars;
      chars += toolsChars(tools, preset);
      return roughTokensFromChars(chars);
    }
    default:
      return assertNever(mode);
  }
}
