/**
 * One compaction of the live conversation, as Hermes' `compress_context` does it with session
 * rotation (hermes-reference §6): under the session's cross-tab lock, check that no other tab
 * rotated the session meanwhile, run `compress()`, restore a real user turn (2026-07), record
 * the boundary in the compressor state, and rotate — the old session ends with reason
 * `compression` and a child session holds the compacted transcript, in one transaction.
 *
 * Cancellation is checked after the summary and before the rotation, so an interrupted
 * compaction leaves the old session untouched (SPEC §6): never a half.
 */
import { compress, type CompressionResult } from '../../core/compression/compress.ts';
import {
  markCompactionBoundary,
  recordCompletedCompaction,
} from '../../core/compression/compression-gates.ts';
import type { CompressorState } from '../../core/compression/compressor-state.ts';
import type { Summarizer } from '../../core/compression/summarizer.ts';
import type { CompressionConfig } from '../../core/config/compression-config.ts';
import { guaranteeRealUserMessage } from '../../core/loop/guarantee-real-user-message.ts';
import { hygieneInputMessages } from '../../core/loop/hygiene-input-messages.ts';
import type { Preset } from '../../core/presets/preset.ts';
import { estimateRequestTokensRough } from '../../core/tokens/estimate-request-tokens-rough.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { ToolSchema } from '../../core/transcript/transcript.ts';
import type { CompactionReason } from './conversation-event.ts';
import type { ConversationStore, StoredChatSession } from './conversation-store.ts';

export interface CompactionInput {
  readonly reason: CompactionReason;
  readonly sessionId: string;
  readonly messages: readonly Message[];
  readonly systemPrompt: string;
  readonly tools: readonly ToolSchema[];
  readonly state: CompressorState;
  readonly config: CompressionConfig;
  readonly preset: Preset;
  readonly mainModel: string | null;
  readonly focusTopic?: string | null;
  readonly force?: boolean;
  readonly tailTokenBudgetOverride?: number;
  readonly currentTokens?: number;
  readonly today?: string | null;
}

export interface CompactionDependencies {
  readonly store: ConversationStore;
  readonly summarizer: Summarizer;
  readonly now: () => number;
  readonly signal: AbortSignal;
}

export type CompactionOutcome =
  | {
      readonly kind: 'rotated';
      readonly result: CompressionResult;
      /** What was compacted: the stored transcript as read under the lock. */
      readonly input: readonly Message[];
      readonly messages: Message[];
      readonly state: CompressorState;
      readonly child: StoredChatSession;
    }
  /** compress() returned its input (too few messages, nothing to summarise, or an aborted summary). */
  | { readonly kind: 'skipped'; readonly result: CompressionResult }
  /** Another tab compacted this session first; the conversation continues at `tipSessionId`. */
  | { readonly kind: 'already-compacted'; readonly tipSessionId: string }
  /** Another tab (or path) holds the lock right now: nothing was done (Hermes skips, never waits). */
  | { readonly kind: 'busy'; readonly message: string };

export async function runCompaction(
  input: CompactionInput,
  dependencies: CompactionDependencies,
): Promise<CompactionOutcome> {
  const { store, signal } = dependencies;
  const locked = await store.withCompactionLock(input.sessionId, async (): Promise<CompactionOutcome> => {
    // The other holder may have rotated the session just before we got the lock.
    const tip = await store.getCompressionTip(input.sessionId);
    if (tip !== input.sessionId) return { kind: 'already-compacted', tipSessionId: tip };
    // Read the transcript under the lock: another tab may have appended to this session.
    const stored = await store.loadMessages(input.sessionId);
    const transcript = stored.length >= input.messages.length ? stored : [...input.messages];
    const messages = input.reason === 'hygiene' ? hygieneInputMessages(transcript, input.preset) : transcript;
    const result = await compress(
      messages,
      {
        config: input.config,
        preset: input.preset,
        state: input.state,
        ...(input.focusTopic ? { focusTopic: input.focusTopic } : {}),
        ...(input.force ? { force: true } : {}),
        ...(input.currentTokens !== undefined ? { currentTokens: input.currentTokens } : {}),
        ...(input.tailTokenBudgetOverride !== undefined
          ? { tailTokenBudgetOverride: input.tailTokenBudgetOverride }
          : {}),
        today: input.today ?? null,
        mainModel: input.mainModel,
      },
      { summarizer: dependencies.summarizer, now: dependencies.now, signal },
    );
    signal.throwIfAborted();
    if (result.skipped !== null || result.aborted) return { kind: 'skipped', result };

    const compacted = guaranteeRealUserMessage(result.messages, messages, input.preset);
    const roughAfter = estimateRequestTokensRough(compacted, input.systemPrompt, input.tools, input.preset);
    let state = markCompactionBoundary(result.state, roughAfter, input.preset);
    const progressed = compacted.length < messages.length || result.tokensAfter < result.tokensBefore;
    // The fallback streak belongs to the real-usage anti-thrash rules.
    if (input.preset.gates.antiThrash === 'real-usage' && progressed)
      state = recordCompletedCompaction(state, result.usedFallback);
    signal.throwIfAborted();
    const rotated = await store.rotateForCompression(input.sessionId, compacted, {
      compressorState: state,
      systemPrompt: input.systemPrompt,
    });
    if (!rotated.ok) return { kind: 'already-compacted', tipSessionId: rotated.error.tipSessionId };
    return { kind: 'rotated', result, input: transcript, messages: compacted, state, child: rotated.value };
  });
  return locked.ok ? locked.value : { kind: 'busy', message: locked.error.message };
}
