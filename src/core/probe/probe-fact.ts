import type { Message } from '../transcript/message.ts';

/** One planted fact: a label the question names and a value nobody could guess. */
export interface ProbeFact {
  /** `P1`, `P2`, … in planting order. */
  readonly label: string;
  /** `amber-falcon-4821`: lower case letters, digits and hyphens only. */
  readonly value: string;
  /** Index of the fact's user message in the probed copy. */
  readonly plantedAt: number;
  /** The original message the fact was planted after (it sits between it and the next one). */
  readonly after: number;
}

/** A probed copy of a transcript: the original messages with the probe pairs planted in. */
export interface ProbePlanting {
  readonly messages: readonly Message[];
  readonly facts: readonly ProbeFact[];
  /** The pinned messages' indices moved to where they stand in the probed copy. */
  readonly pinned: readonly number[];
  /** Boundaries the facts could have gone to (spread over the compacted region). */
  readonly candidates: number;
}

/** Why nothing could be planted. */
export interface ProbePlantError {
  readonly type: 'NothingToPlantInto' | 'BadCount';
  readonly message: string;
}

export const PROBE_MIN_FACTS = 1;
export const PROBE_MAX_FACTS = 20;
export const PROBE_DEFAULT_FACTS = 5;
