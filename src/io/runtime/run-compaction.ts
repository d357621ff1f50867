/**
 * One compaction of the live conversation, as Hermes' `compress_context` does it with session
 * rotation (hermes-reference §6): under the session's cross-tab lock, check that no other tab
 * rotated the session meanwhile, read the stored transcript, compact it with the one core
 * operation (`compactConversation`, run in the worker by the injected compactor), and rotate —
 * the old session ends with reason `compression` and a child session holds the compacted
 * transcript, in one transaction. This module owns only the lock and the storage transaction.
 *
 * Cancellation is checked after the compaction and before the rotation, so an interrupted
 * compaction leaves the old session untouched (SPEC §6): never a half.
 */
import type { AssessmentRoute } from '../../core/lab/assess-compaction.ts';
import type { CompressorState } from '../../core/compression/compressor-state.ts';
import type { Summarizer } from '../../core/compression/summarizer.ts';
import type { CompressionConfig } from '../../core/config/compression-config.ts';
import type { LabCompression } from '../../core/lab/lab-compression.ts';
import type { Result } from '../../core/shared/result.ts';
import type { CompactionReason } from '../../core/strategies/compact-conversation.ts';
import type { Strategy } from '../../core/strategies/strategy.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { ToolSchema } from '../../core/transcript/transcript.ts';
import type { ConversationCompactRequest } from '../../worker/compute-api.ts';
import type { ConversationStore, StoredChatSession } from './conversation-store.ts';

/**
 * Runs `compactConversation` on a conversation (in the worker in the app, in process in
 * tests). The summariser is called back for the summary; the strategy travels by name.
 */
export type Compactor = (
  request: ConversationCompactRequest,
  summarizer: Summarizer,
  signal: AbortSignal,
) => Promise<Result<LabCompression, { message: string }>>;

export interface CompactionInput {
  readonly reason: CompactionReason;
  readonly sessionId: string;
  readonly messages: readonly Message[];
  readonly systemPrompt: string;
  readonly tools: readonly ToolSchema[];
  readonly state: CompressorState;
  readonly config: CompressionConfig;
  readonly strategy: Strategy;
  readonly mainModel: string | null;
  readonly focusTopic?: string | null;
  readonly force?: boolean;
  readonly tailTokenBudgetOverride?: number;
  readonly currentTokens?: number;
  readonly today?: string | null;
  /** Where the conversation runs, for the compaction's ledger. */
  readonly route?: AssessmentRoute | null;
}

export interface CompactionDependencies {
  readonly store: ConversationStore;
  readonly compact: Compactor;
  readonly summarizer: Summarizer;
  readonly signal: AbortSignal;
}

export type CompactionOutcome =
  | {
      readonly kind: 'rotated';
      readonly result: LabCompression;
      /** What was compacted: the stored transcript as read under the lock. */
      readonly input: readonly Message[];
      readonly child: StoredChatSession;
    }
  /** Nothing changed (too few messages, nothing to summarise, an aborted summary, growth refused). */
  | { readonly kind: 'skipped'; readonly result: LabCompression }
  /** The compaction itself failed before anything was stored. */
  | { readonly kind: 'failed'; readonly message: string }
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
    const compacted = await dependencies.compact(
      {
        strategy: input.strategy.name,
        reason: input.reason,
        messages: transcript,
        tools: [...input.tools],
        systemPrompt: input.systemPrompt,
        config: input.config,
        state: input.state,
        force: input.force ?? false,
        today: input.today ?? null,
        mainModel: input.mainModel,
        ...(input.focusTopic ? { focusTopic: input.focusTopic } : {}),
        ...(input.route ? { route: input.route } : {}),
        ...(input.currentTokens !== undefined ? { currentTokens: input.currentTokens } : {}),
        ...(input.tailTokenBudgetOverride !== undefined
          ? { tailTokenBudgetOverride: input.tailTokenBudgetOverride }
          : {}),
      },
      dependencies.summarizer,
      signal,
    );
    signal.throwIfAborted();
    if (!compacted.ok) return { kind: 'failed', message: compacted.error.message };
    const result = compacted.value;
    if (result.skipped !== null) return { kind: 'skipped', result };
    const rotated = await store.rotateForCompression(input.sessionId, result.messages, {
      compressorState: result.state,
      systemPrompt: input.systemPrompt,
    });
    if (!rotated.ok) return { kind: 'already-compacted', tipSessionId: rotated.error.tipSessionId };
    return { kind: 'rotated', result, input: transcript, child: rotated.value };
  });
  return locked.ok ? locked.value : { kind: 'busy', message: locked.error.message };
}
