/**
 * One compaction of the live conversation, as Hermes' `compress_context` does it
 * (hermes-reference §6): under the session's cross-tab lock, check that no other tab rotated
 * the session meanwhile, read the stored transcript, compact it with the one core operation
 * (`compactConversation`, run in the worker by the injected compactor), optionally stop for the
 * user's review, and commit — in place (the session keeps its id, its rows are archived) or by
 * rotation (a child session continues), with the compaction's epoch, in one transaction. This
 * module owns the lock, the review step and the storage transaction.
 *
 * Cancellation is checked after the compaction and after the review, before the commit, so an
 * interrupted compaction leaves the session untouched (SPEC §6): never a half.
 */
import type { AssessmentRoute, CompactionAssessment } from '../../core/lab/assess-compaction.ts';
import type { CompressorState } from '../../core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '../../core/compression/offline-summarizer.ts';
import type { Summarizer } from '../../core/compression/summarizer.ts';
import type { CompressionConfig } from '../../core/config/compression-config.ts';
import type { LabCompression } from '../../core/lab/lab-compression.ts';
import { compactionEpochDetails } from '../../core/sessions/compaction-epoch.ts';
import type { CompactionMode } from '../../core/sessions/compaction-mode.ts';
import { ok, type Result } from '../../core/shared/result.ts';
import type { CompactionReason } from '../../core/strategies/compact-conversation.ts';
import type { Strategy } from '../../core/strategies/strategy.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { ToolSchema } from '../../core/transcript/transcript.ts';
import { EMPTY_USAGE } from '../../core/usage/canonical-usage.ts';
import type { ConversationCompactRequest } from '../../worker/compute-api.ts';
import {
  bodiesChanged,
  mustCompactNote,
  type CompactionDraft,
  type CompactionReviewer,
} from './compaction-review.ts';
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
  /** Where the result goes: the same session (in place) or a continuation. */
  readonly mode: CompactionMode;
  /** Stop for the reviewer before committing. */
  readonly review: boolean;
  /** Names this attempt in its summariser calls' usage records and in its epoch. */
  readonly attemptId: string;
}

export interface CompactionDependencies {
  readonly store: ConversationStore;
  readonly compact: Compactor;
  readonly summarizer: Summarizer;
  readonly signal: AbortSignal;
  /** Shows a draft and waits for the decision; null commits at once. */
  readonly reviewer: CompactionReviewer | null;
  /**
   * The fidelity and ledger to commit with a result: the worker's, re-priced from what the
   * provider reported in a live chat.
   */
  readonly assess: (result: LabCompression, before: readonly Message[]) => CompactionAssessment | null;
  /** Called once the summary is written, before any review: the summariser calls are billed already. */
  readonly onSummarised?: () => Promise<void>;
}

export type CompactionOutcome =
  | {
      readonly kind: 'committed';
      readonly mode: CompactionMode;
      /** What was committed (with the reviewed summaries, when edited). */
      readonly result: LabCompression;
      /** What was compacted: the stored transcript as read under the lock. */
      readonly input: readonly Message[];
      /** Where the conversation continues: the same session in place, the child after a rotation. */
      readonly session: StoredChatSession;
      readonly reviewed: boolean;
      readonly edited: boolean;
    }
  /** Nothing changed (too few messages, nothing to summarise, an aborted summary, growth refused). */
  | { readonly kind: 'skipped'; readonly result: LabCompression }
  /** The reviewer discarded it: nothing was stored. */
  | { readonly kind: 'discarded'; readonly result: LabCompression; readonly mustCompact: boolean }
  /** The compaction itself failed before anything was stored. */
  | { readonly kind: 'failed'; readonly message: string }
  /**
   * Another tab compacted this session first, or changed its history meanwhile; the
   * conversation continues at `tipSessionId` (the same session after an in-place change).
   */
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
    const entries = await store.loadMessageEntries(input.sessionId);
    const fromStore = entries.length >= input.messages.length;
    const transcript = fromStore ? entries.map((entry) => entry.message) : [...input.messages];
    // The pins are the stored session's: a message pinned in the lab is kept here too.
    const pinned = fromStore ? entries.flatMap((entry, index) => (entry.pinned ? [index] : [])) : [];
    const request = compactRequest(input, transcript, pinned);
    const compacted = await dependencies.compact(request, dependencies.summarizer, signal);
    await dependencies.onSummarised?.();
    signal.throwIfAborted();
    if (!compacted.ok) return { kind: 'failed', message: compacted.error.message };
    if (compacted.value.skipped !== null) return { kind: 'skipped', result: compacted.value };
    const assessed = (lab: LabCompression): LabCompression => ({
      ...lab,
      assessment: dependencies.assess(lab, transcript),
    });
    let result = assessed(compacted.value);
    let originalBodies: string[] | null = null;
    const reviewer = input.review ? dependencies.reviewer : null;
    if (reviewer !== null) {
      const draft = reviewDraft(input, transcript, result, request, dependencies, assessed);
      const decision = await reviewer(draft, signal);
      signal.throwIfAborted();
      if (decision.kind === 'discard') return { kind: 'discarded', result, mustCompact: draft.mustCompact };
      if (bodiesChanged(result, decision.bodies)) {
        const edited = await draft.preview(decision.bodies);
        signal.throwIfAborted();
        if (!edited.ok) return { kind: 'failed', message: edited.error.message };
        if (edited.value.skipped !== null) return { kind: 'skipped', result: edited.value };
        originalBodies = result.summaries.map((summary) => summary.body);
        // The reviewed text stands in for the summariser's; who wrote the draft stays on record.
        result = { ...edited.value, summarizerLabel: result.summarizerLabel, offline: result.offline };
      }
    }
    // A rotation starts the child session (the strategy's session-start hook: a failure cooldown
    // does not carry over); in place, the session goes on.
    if (input.mode === 'rotate')
      result = { ...result, state: input.strategy.onSessionStart(result.state, 'compression') };
    const committed = await store.commitCompaction(input.sessionId, result.messages, {
      mode: input.mode,
      compressorState: result.state,
      systemPrompt: input.systemPrompt,
      basisMessageIds: fromStore ? entries.map((entry) => entry.id) : null,
      pinned: result.pinned,
      epoch: compactionEpochDetails({
        reason: input.reason,
        attemptId: input.attemptId,
        reviewed: reviewer !== null,
        fates: result.fates,
        messagesAfter: result.messages.length,
        summaries: result.summaries,
        originalBodies,
        requestTokensBefore: result.requestTokensBefore,
        requestTokensAfter: result.requestTokensAfter,
        assessment: result.assessment,
        settings: {
          strategy: input.strategy.name,
          strategyLabel: input.strategy.label,
          mode: input.mode,
          contextLength: input.config.contextLength,
          thresholdPercent: input.config.thresholdPercent,
          targetRatio: input.config.targetRatio,
          protectFirstN: input.config.protectFirstN,
          protectLastN: input.config.protectLastN,
          strategyOptions: { ...(input.config.strategyOptions ?? {}) },
          focusTopic: input.focusTopic ?? null,
          summarizer: result.summarizerLabel,
          model: input.mainModel,
        },
      }),
    });
    if (!committed.ok) return { kind: 'already-compacted', tipSessionId: committed.error.tipSessionId };
    return {
      kind: 'committed',
      mode: committed.value.mode,
      result,
      input: transcript,
      session: committed.value.session,
      reviewed: reviewer !== null,
      edited: originalBodies !== null,
    };
  });
  return locked.ok ? locked.value : { kind: 'busy', message: locked.error.message };
}

function compactRequest(
  input: CompactionInput,
  transcript: readonly Message[],
  pinned: readonly number[],
): ConversationCompactRequest {
  return {
    strategy: input.strategy.name,
    reason: input.reason,
    messages: [...transcript],
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
    ...(pinned.length > 0 ? { pinned: [...pinned] } : {}),
  };
}

/**
 * What the reviewer sees. Its preview runs the same request with the reviewed bodies and no
 * summariser call, carrying the original call's usage so the ledger still pays for it.
 */
function reviewDraft(
  input: CompactionInput,
  transcript: readonly Message[],
  result: LabCompression,
  request: ConversationCompactRequest,
  dependencies: CompactionDependencies,
  assessed: (lab: LabCompression) => LabCompression,
): CompactionDraft {
  const note = mustCompactNote(
    input.reason,
    input.currentTokens ?? result.requestTokensBefore,
    input.config.contextLength,
  );
  const ledger = result.assessment?.ledger;
  const summaryUsage = ledger
    ? {
        ...EMPTY_USAGE,
        inputTokens: ledger.summaryInputTokens,
        outputTokens: ledger.summaryOutputTokens,
        requestCount: result.summarizerCalls,
      }
    : null;
  return {
    reason: input.reason,
    mode: input.mode,
    sessionId: input.sessionId,
    transcript,
    result,
    mustCompact: note !== null,
    note,
    async preview(bodies) {
      const replayed = await dependencies.compact(
        {
          ...request,
          summaryOverrides: [...bodies],
          summaryUsage,
          summaryMeasured: result.assessment?.summaryMeasured ?? false,
        },
        createOfflineSummarizer(),
        dependencies.signal,
      );
      return replayed.ok ? ok(assessed(replayed.value)) : replayed;
    },
  };
}
