import type { TailCutStep } from '../compression/find-tail-cut.ts';
import type { HygieneDecision } from '../compression/hygiene-decision.ts';
import type { DerivedThresholds } from '../config/derive-thresholds.ts';
import type { BoundarySwitches } from '../presets/preset.ts';
import type { HermesRaised } from '../shared/hermes-raised.ts';

/** What Hermes' phases 1–2 decided, for the explanation and the replay (hermes-reference §5). */
export interface HermesPlanDetails {
  readonly thresholds: DerivedThresholds;
  /** The tail budget in force. */
  readonly tailTokenBudget: number;
  /** `_protect_head_size`: messages kept verbatim at the start before alignment. */
  readonly headSize: number;
  readonly headRule: BoundarySwitches['head'];
  /** Present (true) when the leading system message is a chat's prompt, kept outside the compaction (`PlanInput`). */
  readonly systemPromptOutside?: true;
  /** With this few messages compress() returns its input. */
  readonly tooFewMessages: boolean;
  /** compress() needs more than this many messages. */
  readonly minMessagesExclusive: number;
  /** Tool outputs before this index are outside the protected tail. */
  readonly pruneBoundary: number;
  /** Hermes' count of pruned outputs (duplicates, one-liners, images; not argument shrinking). */
  readonly prunedCount: number;
  readonly tailCutSteps: readonly TailCutStep[];
  /** The gateway's 85% check before a message is processed. */
  readonly hygiene: HygieneDecision;
  /** Where this generation's pruning raises (reason `hermes-raised`), with Python's exception. */
  readonly raised: HermesRaised | null;
}
