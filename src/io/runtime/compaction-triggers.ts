/**
 * When the live loop compacts (hermes-reference §4): session hygiene before the turn, the
 * turn-prologue preflight, the check before every request, and the check after a tool round.
 * The pure decisions are in `core/loop`; this module runs them against the conversation as it
 * stands and asks the runtime to compact when they say so.
 */
import { shouldCompress } from '../../core/compression/compression-gates.ts';
import type { CompressorState } from '../../core/compression/compressor-state.ts';
import { hygieneDecision } from '../../core/compression/hygiene-decision.ts';
import type { CompressionConfig } from '../../core/config/compression-config.ts';
import { postTurnCheckTokens } from '../../core/loop/post-turn-check-tokens.ts';
import {
  blocksFurtherPreApiPasses,
  requestPressureTokens,
  shouldCompressBeforeApiCall,
} from '../../core/loop/pre-api-compression-check.ts';
import { requestMessages } from '../../core/loop/request-messages.ts';
import {
  decideAfterPreflightPass,
  decidePreflightStart,
  MAX_PREFLIGHT_PASSES,
} from '../../core/loop/preflight-decision.ts';
import type { Preset } from '../../core/presets/preset.ts';
import type { Strategy } from '../../core/strategies/strategy.ts';
import { estimateMessagesTokensRough } from '../../core/tokens/estimate-messages-tokens-rough.ts';
import { estimateRequestTokensRough } from '../../core/tokens/estimate-request-tokens-rough.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { ToolSchema } from '../../core/transcript/transcript.ts';
import type { CompactionReason } from '../../core/strategies/compact-conversation.ts';
import { compactionApplied, type CompactionReport } from '../../core/loop/conversation-event.ts';

/** The conversation as the triggers see it; every read is live (a compaction replaces it). */
export interface TriggerHost {
  readonly messages: readonly Message[];
  readonly systemPrompt: string;
  state: CompressorState;
  /** Hermes' `session_entry.last_prompt_tokens`: the last real count, 0 after a compaction. */
  readonly lastSessionPromptTokens: number;
  /** The compression settings with the window currently in force. */
  config(): CompressionConfig;
  now(): number;
  compact(reason: CompactionReason, options: { readonly currentTokens?: number }): Promise<CompactionReport>;
}

/** What the triggers track per turn (Hermes' loop-local counters). */
export interface TurnCompactionBudget {
  /** The strategy whose trigger and compaction apply. */
  readonly strategy: Strategy;
  /** Its host preset: the loop's gates, hygiene and estimates. */
  readonly preset: Preset;
  readonly tools: readonly ToolSchema[];
  /** Shared by the pre-request check and overflow recovery: at most 3 per turn. */
  compressionAttempts: number;
  preflightBlocked: boolean;
  preflightDeferred: boolean;
}

const thresholdOf = (host: TriggerHost, turn: TurnCompactionBudget): number =>
  turn.strategy.trigger(host.config()).thresholdTokens;

/** Gateway session hygiene (§4.5): 85% of the window, the real count when one is known. */
export async function runHygiene(host: TriggerHost, turn: TurnCompactionBudget): Promise<void> {
  const config = host.config();
  const decision = hygieneDecision(
    {
      historyLength: host.messages.length,
      contextLength: config.contextLength,
      lastPromptTokens: host.lastSessionPromptTokens,
      roughTokens: estimateMessagesTokensRough(host.messages, turn.preset),
      compressionEnabled: config.enabled,
      hardMessageLimit: config.hygieneHardMessageLimit,
    },
    turn.preset,
  );
  if (decision.needsCompress) await host.compact('hygiene', { currentTokens: decision.tokensUsed });
}

/** The turn-prologue preflight (§4.1): up to 3 passes while they make progress. */
export async function runPreflight(host: TriggerHost, turn: TurnCompactionBudget): Promise<void> {
  const config = host.config();
  const estimate = (): number =>
    estimateRequestTokensRough(host.messages, host.systemPrompt, turn.tools, turn.preset);
  const start = decidePreflightStart(
    {
      compressionEnabled: config.enabled,
      messageCount: host.messages.length,
      roughMessageTokens: () => estimateMessagesTokensRough(host.messages, turn.preset),
      requestTokens: estimate(),
      protectFirstN: config.protectFirstN,
      protectLastN: config.protectLastN,
      thresholdTokens: thresholdOf(host, turn),
      state: host.state,
      nowMs: host.now(),
    },
    turn.preset,
  );
  host.state = start.state;
  turn.preflightDeferred = start.deferred;
  if (!start.compress) return;
  for (let pass = 1; pass <= MAX_PREFLIGHT_PASSES; pass++) {
    const before = { messageCount: host.messages.length, tokens: estimate() };
    const report = await host.compact('preflight', { currentTokens: before.tokens });
    if (!compactionApplied(report)) {
      turn.preflightBlocked = report.outcome !== 'already-compacted';
      return;
    }
    const after = { messageCount: host.messages.length, tokens: estimate() };
    const thresholdTokens = thresholdOf(host, turn);
    const stillShouldCompress = shouldCompress(
      host.state,
      { thresholdTokens, preset: turn.preset, nowMs: host.now() },
      after.tokens,
    ).compress;
    const next = decideAfterPreflightPass(
      { pass, before, after, thresholdTokens, stillShouldCompress },
      turn.preset,
    );
    if (next === 'blocked') turn.preflightBlocked = true;
    if (next !== 'continue') return;
  }
}

/** Before each request (§4.2): the request pressure, within the turn's compaction budget. */
export async function runPreApiCheck(host: TriggerHost, turn: TurnCompactionBudget): Promise<void> {
  for (;;) {
    const pressure = requestPressure(host, turn);
    const thresholdTokens = thresholdOf(host, turn);
    const compress = shouldCompressBeforeApiCall(
      {
        compressionEnabled: host.config().enabled,
        messageCount: host.messages.length,
        compressionAttempts: turn.compressionAttempts,
        preflightBlocked: turn.preflightBlocked,
        preflightDeferred: turn.preflightDeferred,
        pressureTokens: pressure,
        thresholdTokens,
        state: host.state,
        nowMs: host.now(),
      },
      turn.preset,
    );
    if (!compress) return;
    turn.compressionAttempts += 1;
    const report = await host.compact('pre-api', { currentTokens: pressure });
    if (
      !compactionApplied(report) ||
      blocksFurtherPreApiPasses(pressure, requestPressure(host, turn), thresholdTokens)
    ) {
      turn.preflightBlocked = true;
      return;
    }
  }
}

/** After a tool round (§4.3): the real prompt count of the last response, never completion tokens. */
export async function runPostToolCheck(host: TriggerHost, turn: TurnCompactionBudget): Promise<void> {
  if (!host.config().enabled) return;
  const tokens = postTurnCheckTokens(host.state, () =>
    estimateRequestTokensRough(host.messages, '', turn.tools, turn.preset),
  );
  const verdict = shouldCompress(
    host.state,
    { thresholdTokens: thresholdOf(host, turn), preset: turn.preset, nowMs: host.now() },
    tokens,
  );
  if (verdict.compress) await host.compact('post-turn', { currentTokens: tokens });
}

/** The pre-request check's count: the request's messages, system prompt first, plus tool schemas. */
export function requestPressure(host: TriggerHost, turn: TurnCompactionBudget): number {
  return requestPressureTokens(requestMessages(host.systemPrompt, host.messages), turn.tools, turn.preset);
}
