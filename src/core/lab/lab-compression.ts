import type { CompactionAssessment } from './assess-compaction.ts';
import type { CompressionResult } from '../compression/compress.ts';
import type { CompressorState } from '../compression/compressor-state.ts';
import type { CompactionSummary, CompactSkipReason, ReattachedFile } from '../strategies/strategy.ts';
import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import type { StrategyName } from '../strategies/strategy-names.ts';
import type { Message } from '../transcript/message.ts';
import type { CompressionDiff } from './compression-diff.ts';

/**
 * One compaction run in the lab (a replay step, a save, a comparison entry), as the worker
 * returns it: the outcome of `compactConversation` with its before/after diff. The input
 * transcript is the document the page already has, so it is not sent back.
 */
export interface LabCompression {
  readonly strategy: StrategyName;
  readonly strategyLabel: string;
  /**
   * The compacted messages, finishing steps applied; the input when skipped (the worker's
   * `compress` sends none then, and no `diff.after`: the page views the input as its document).
   */
  readonly messages: Message[];
  readonly state: CompressorState;
  readonly skipped: CompactSkipReason | null;
  /** What happened, in words. */
  readonly notes: readonly string[];
  /** One fate per input message (`FATE`). */
  readonly fates: Uint8Array;
  /**
   * The pins of the result: where each pinned input message stands in `messages`, ascending
   * (a pin follows its message through the compaction). Without pins, or when skipped, the
   * input's pins as given.
   */
  readonly pinned: readonly number[];
  readonly pruned: readonly PrunedToolOutput[];
  readonly summaries: readonly CompactionSummary[];
  readonly reattached: readonly ReattachedFile[];
  /** Rough message estimates (the strategy's estimator) before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Rough request estimates (system prompt + messages + tool schemas) before and after. */
  readonly requestTokensBefore: number;
  readonly requestTokensAfter: number;
  readonly summarizerCalls: number;
  readonly warning: string | null;
  /**
   * Hermes' phase details, without its message list (`messages`) and its prompt (the first
   * summary's `prompt`: megabytes for a long transcript, sent once); null for other tools.
   */
  readonly hermes: Omit<CompressionResult, 'messages' | 'prompt'> | null;
  readonly diff: CompressionDiff;
  /** What it kept (fidelity), what it cost and when that pays back (ledger); null when skipped. */
  readonly assessment: CompactionAssessment | null;
  readonly summarizerLabel: string;
  readonly offline: boolean;
  /** Worker time of the compaction and the diff, milliseconds (a provider call included). */
  readonly elapsedMs: number;
}
