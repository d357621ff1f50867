import type { Preset } from '../presets/preset.ts';
import { assertNever } from '../shared/assert-never.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import {
  cachedRoughMessageSize,
  roughShareOf,
  roughTokensFromSizes,
  type RoughSizeCache,
} from './estimate-messages-tokens-rough.ts';
import { estimateTokensRough, roughTokensFromChars } from './estimate-tokens-rough.ts';
import { toolsChars } from './estimate-tools-tokens-rough.ts';
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
  return roughRequestTokensFromSizes(
    sumRoughMessageSizes(messages, preset, cache),
    systemPrompt,
    toolsChars(tools, preset),
    preset,
  );
}

/**
 * The summed rough sizes of a message list: one walk gives both the message estimate
 * (`roughTokensFromSizes(chars, images)`) and the request estimate (`roughRequestTokensFromSizes`).
 * Given `shares`, the same walk writes each message's share of the message estimate into it
 * (`roughShareOf`), counted on from `charsBefore` (the characters of the messages before the
 * list, when it is the end of a longer one): the planner's per-message counts, an append's and
 * the compaction's totals are one loop. The sizes returned are the list's own.
 */
export function sumRoughMessageSizes(
  messages: readonly Message[],
  preset: Preset,
  cache?: RoughSizeCache,
  shares?: Int32Array,
  charsBefore = 0,
): RoughMessagesTotal {
  let chars = 0;
  let images = 0;
  for (let index = 0; index < messages.length; index++) {
    const size = cachedRoughMessageSize(messages[index]!, preset, cache);
    if (shares) shares[index] = roughShareOf(charsBefore + chars, size);
    chars += size.chars;
    images += size.images;
  }
  return { chars, images, count: messages.length };
}

/** Summed rough sizes of a message list: what a caller keeping a running total holds. */
export interface RoughMessagesTotal {
  readonly chars: number;
  readonly images: number;
  readonly count: number;
}

/**
 * The request estimate from message sizes already summed, so a caller that appends messages
 * one by one (the session simulation) gets Hermes' figure without re-measuring the list.
 * 2026-07 rounds system prompt, messages and tools separately; 2026-04 rounds the character
 * total once (its messages never carry a flat image price).
 */
export function roughRequestTokensFromSizes(
  messages: RoughMessagesTotal,
  systemPrompt: string,
  toolsCharCount: number,
  preset: Preset,
): number {
  const mode = preset.estimation.requestRounding;
  switch (mode) {
    case 'per-term':
      return (
        estimateTokensRough(systemPrompt) +
        (messages.count > 0 ? roughTokensFromSizes(messages.chars, messages.images) : 0) +
        roughTokensFromChars(toolsCharCount)
      );
    case 'once':
      return roughTokensFromChars(
        (systemPrompt ? pythonLength(systemPrompt) : 0) + messages.chars + toolsCharCount,
      );
    default:
      return assertNever(mode);
  }
}
