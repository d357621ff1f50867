/**
 * Whether the live chat loop would compact before sending its next request, and on which count:
 * the checks a turn runs before its first request (hermes-reference §4.5, §4.1, §4.2), in the
 * order the runtime runs them — gateway hygiene at 85% of the window, the turn-prologue
 * preflight, then the pre-request check. The runtime (`io/runtime/compaction-triggers.ts`) runs
 * the same pure decisions with side effects in between; this is their first step, for the map.
 */
import type { CompressorState } from '../compression/compressor-state.ts';
import { hygieneDecision, type HygieneDecision } from '../compression/hygiene-decision.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import type { Preset } from '../presets/preset.ts';
import {
  estimateMessagesTokensRough,
  type RoughSizeCache,
} from '../tokens/estimate-messages-tokens-rough.ts';
import { estimateRequestTokensRough } from '../tokens/estimate-request-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import { requestPressureTokens, shouldCompressBeforeApiCall } from './pre-api-compression-check.ts';
import { decidePreflightStart } from './preflight-decision.ts';
import { requestMessages } from './request-messages.ts';

export interface TurnCompactionInput {
  /** The stored conversation, without the system prompt (the chat keeps that on the session). */
  readonly messages: readonly Message[];
  readonly systemPrompt: string;
  /** The tool schemas the request offers. */
  readonly tools: readonly ToolSchema[];
  /** The compression settings with the window the loop works with. */
  readonly config: CompressionConfig;
  /** The strategy's trigger (`strategy.trigger(config).thresholdTokens`). */
  readonly thresholdTokens: number;
  readonly state: CompressorState;
  /** Hermes' `session_entry.last_prompt_tokens`: the last reported prompt count, 0 when none. */
  readonly lastSessionPromptTokens: number;
  readonly nowMs: number;
  readonly cache?: RoughSizeCache;
}

/** The check that would compact first. */
export type TurnCompactionCheck = 'hygiene' | 'preflight' | 'pre-request';

export interface TurnCompactionDecision {
  /** The first check that would compact; null when the request would go out as it is. */
  readonly firedBy: TurnCompactionCheck | null;
  /** 2026-07: the preflight waits for the provider's next count (and the pre-request check with it). */
  readonly deferred: boolean;
  /** The pre-request check's count: the request's messages (system prompt first) + tool schemas. */
  readonly requestTokens: number;
  /** The preflight's count: `estimate_request_tokens_rough(messages, system_prompt, tools)`. */
  readonly preflightTokens: number;
  readonly hygiene: HygieneDecision;
}

export function decideTurnCompaction(input: TurnCompactionInput, preset: Preset): TurnCompactionDecision {
  const { messages, config, cache } = input;
  const requestTokens = requestPressureTokens(
    requestMessages(input.systemPrompt, messages),
    input.tools,
    preset,
    cache,
  );
  const preflightTokens = estimateRequestTokensRough(
    messages,
    input.systemPrompt,
    input.tools,
    preset,
    cache,
  );
  const hygiene = hygieneDecision(
    {
      historyLength: messages.length,
      contextLength: config.contextLength,
      lastPromptTokens: input.lastSessionPromptTokens,
      roughTokens: estimateMessagesTokensRough(messages, preset, cache),
      compressionEnabled: config.enabled,
      hardMessageLimit: config.hygieneHardMessageLimit,
    },
    preset,
  );
  const decided = (firedBy: TurnCompactionCheck | null, deferred = false): TurnCompactionDecision => ({
    firedBy,
    deferred,
    requestTokens,
    preflightTokens,
    hygiene,
  });
  if (hygiene.needsCompress) return decided('hygiene');
  const preflight = decidePreflightStart(
    {
      compressionEnabled: config.enabled,
      messageCount: messages.length,
      roughMessageTokens: () => estimateMessagesTokensRough(messages, preset, cache),
      requestTokens: preflightTokens,
      protectFirstN: config.protectFirstN,
      protectLastN: config.protectLastN,
      thresholdTokens: input.thresholdTokens,
      state: input.state,
      nowMs: input.nowMs,
    },
    preset,
  );
  if (preflight.compress) return decided('preflight');
  const preRequest = shouldCompressBeforeApiCall(
    {
      compressionEnabled: config.enabled,
      messageCount: messages.length,
      compressionAttempts: 0,
      preflightBlocked: false,
      preflightDeferred: preflight.deferred,
      pressureTokens: requestTokens,
      thresholdTokens: input.thresholdTokens,
      // The preflight's ratchet and rough floor are in force for the rest of the turn.
      state: preflight.state,
      nowMs: input.nowMs,
    },
    preset,
  );
  return decided(preRequest ? 'pre-request' : null, preflight.deferred);
}
