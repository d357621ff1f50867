import type { CompactionAssessment } from '../lab/assess-compaction.ts';
import type { Message, ToolCall } from '../transcript/message.ts';
import type { CanonicalUsage } from '../usage/canonical-usage.ts';

import type { CompactionReason } from '../strategies/compact-conversation.ts';

export type { CompactionReason };

export interface CompactionReport {
  readonly reason: CompactionReason;
  /**
   * `rotated`: a child session continues; `in-place`: the session kept its id, its old rows
   * archived; `skipped`: compress() changed nothing; `aborted`: the summary failed and nothing
   * was dropped; `discarded`: the reviewer threw it away; `already-compacted`: another tab did it
   * first (or changed the history meanwhile); `busy`: another tab is compacting this session now.
   */
  readonly outcome:
    'rotated' | 'in-place' | 'skipped' | 'aborted' | 'discarded' | 'already-compacted' | 'busy';
  /** It stopped for review before it was committed (or discarded). */
  readonly reviewed: boolean;
  /** The reviewer changed the summary before committing it. */
  readonly edited: boolean;
  /** Rough request estimates (system prompt + messages + tool schemas) before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  /** The inserted summary (prefixed), null when nothing was summarised. */
  readonly summary: string | null;
  readonly compressionCount: number;
  /** "⚠️  Session compressed N times — accuracy may degrade…" once the count reaches 2. */
  readonly warning: string | null;
  readonly summarizerLabel: string;
  readonly usedFallback: boolean;
  readonly summaryError: string | null;
  readonly skippedReason: string | null;
  /** What the compaction did or why it did nothing, in words. */
  readonly notes: readonly string[];
  readonly focusTopic: string | null;
  /** The session the conversation continues in (the child after a rotation). */
  readonly sessionId: string;
  readonly sessionTitle: string | null;
  readonly parentSessionId: string;
  /**
   * What the compaction kept (fidelity, from the worker) and what it cost (the ledger, priced
   * from the provider's usage where there was one); null when nothing was compacted.
   */
  readonly assessment: CompactionAssessment | null;
}

export interface UsageReport {
  readonly usage: CanonicalUsage;
  /** Prompt tokens as the compressor reads them: input + cache reads + cache writes. */
  readonly promptTokens: number;
  /** Cache reads ÷ prompt tokens, 0 when the prompt was empty. */
  readonly cacheHitRate: number;
  /** USD from the built-in price table; null when the model is not priced. */
  readonly costUsd: number | null;
  /** The input side only (uncached input, cache reads, cache writes). */
  readonly inputCostUsd: number | null;
  readonly model: string;
  /** `summary` for compaction calls, `chat` for the conversation. */
  readonly purpose: 'chat' | 'summary';
}

export type TurnOutcome = 'completed' | 'failed' | 'cancelled';

/** Whether a compaction changed the conversation (in place or by rotation). */
export const compactionApplied = (report: Pick<CompactionReport, 'outcome'>): boolean =>
  report.outcome === 'rotated' || report.outcome === 'in-place';

/**
 * Everything the runtime reports, in the order it happens. Names follow C4 (`noun-verb`).
 */
export type ConversationEvent =
  | {
      readonly type: 'session-change';
      /** Null after "New chat", until the first message creates the session. */
      readonly sessionId: string | null;
      readonly title: string | null;
      readonly reason: 'new' | 'resume' | 'compression' | 'undo' | 'redo';
      readonly messages: readonly Message[];
    }
  | { readonly type: 'turn-start'; readonly turnId: number }
  /** A message was stored and is now part of the conversation. */
  | { readonly type: 'message-append'; readonly message: Message }
  | { readonly type: 'text-delta'; readonly text: string }
  /** The streamed reply so far was thrown away (a retry follows, or the turn failed). */
  | { readonly type: 'stream-reset'; readonly reason: string }
  | { readonly type: 'tool-call'; readonly call: ToolCall }
  | {
      readonly type: 'tool-result';
      readonly toolCallId: string;
      readonly name: string;
      readonly content: string;
      /** The raw result was stored and the context holds a `<persisted-output>` preview. */
      readonly persisted: boolean;
    }
  | ({ readonly type: 'usage' } & UsageReport)
  | { readonly type: 'compaction-start'; readonly reason: CompactionReason }
  | ({ readonly type: 'compaction-end' } & CompactionReport)
  | { readonly type: 'retry'; readonly attempt: number; readonly delayMs: number; readonly message: string }
  | {
      readonly type: 'recovery';
      readonly action: 'compress-and-retry' | 'retry-with-max-tokens';
      readonly message: string;
      readonly contextLength: number;
      readonly maxTokens: number | null;
      readonly attempt: number;
    }
  | { readonly type: 'notice'; readonly message: string }
  | { readonly type: 'error'; readonly message: string }
  | {
      readonly type: 'turn-end';
      readonly turnId: number;
      readonly outcome: TurnOutcome;
      readonly message: string | null;
    };

export type ConversationEventListener = (event: ConversationEvent) => void;

/** A minimal typed emitter: listeners run synchronously, in subscription order. */
export class ConversationEvents {
  readonly #listeners = new Set<ConversationEventListener>();

  subscribe(listener: ConversationEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: ConversationEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
