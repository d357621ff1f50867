import { err, ok, type Result } from '../shared/result.ts';
import { FATE } from '../strategies/strategy.ts';
import { hasToolCalls, type Message } from '../transcript/message.ts';
import { makeProbeValues } from './make-probe-values.ts';
import {
  PROBE_MAX_FACTS,
  PROBE_MIN_FACTS,
  type ProbeFact,
  type ProbePlantError,
  type ProbePlanting,
} from './probe-fact.ts';
import { probeFactMessages } from './probe-messages.ts';

export interface PlantProbeInput {
  readonly messages: readonly Message[];
  /** The strategy's plan of these messages: one fate per message (`FATE`), head and tail bounds. */
  readonly plan: {
    readonly fates: Uint8Array;
    readonly headEnd: number;
    readonly tailStart: number;
  };
  readonly count: number;
  /** Decides the values; the same seed plants the same facts. */
  readonly seed: number;
  /** Indices of pinned messages, moved with the planting. */
  readonly pinned?: readonly number[];
}

/**
 * Plants `count` labelled facts into a copy of `messages`, spread evenly over the region the
 * strategy's plan summarises or drops. A fact goes between two messages that are both compacted,
 * outside the protected head (`[0, headEnd)`) and tail (`[tailStart, …)`), and never inside a
 * tool group (after an assistant message that calls tools, or before a tool result), so tool
 * pairs stay intact. Each fact is a user message stating it and an assistant acknowledgement
 * (`probeFactMessages`). With fewer boundaries than facts, several facts share a boundary.
 *
 * @example plantProbeFacts({ messages, plan, count: 5, seed: 42 }).value.facts[0].label // 'P1'
 */
export function plantProbeFacts(input: PlantProbeInput): Result<ProbePlanting, ProbePlantError> {
  const { messages, plan, count } = input;
  if (!Number.isInteger(count) || count < PROBE_MIN_FACTS || count > PROBE_MAX_FACTS) {
    return err({
      type: 'BadCount',
      message: `The number of facts must be a whole number from ${PROBE_MIN_FACTS} to ${PROBE_MAX_FACTS}; got ${count}.`,
    });
  }
  const candidates = plantingBoundaries(messages, plan);
  if (candidates.length === 0) {
    return err({
      type: 'NothingToPlantInto',
      message:
        'This strategy does not summarise or drop two neighbouring messages outside a tool call here, so there is nowhere to plant a probe. Pick a smaller window or another strategy, then replay again.',
    });
  }
  // Boundary i of count: the middle of the i-th of `count` equal slices of the candidates.
  const chosen = Array.from(
    { length: count },
    (_, index) => candidates[Math.floor(((2 * index + 1) * candidates.length) / (2 * count))]!,
  );
  const values = makeProbeValues(count, input.seed);
  const out: Message[] = [];
  const facts: ProbeFact[] = [];
  const shift = new Int32Array(messages.length);
  let next = 0;
  for (let index = 0; index < messages.length; index += 1) {
    while (next < count && chosen[next] === index) {
      const label = `P${next + 1}`;
      facts.push({ label, value: values[next]!, plantedAt: out.length, after: index - 1 });
      out.push(...probeFactMessages(label, values[next]!));
      next += 1;
    }
    shift[index] = out.length - index;
    out.push(messages[index]!);
  }
  const pinned = (input.pinned ?? [])
    .filter((index) => index >= 0 && index < messages.length)
    .map((index) => index + shift[index]!);
  return ok({ messages: out, facts, pinned, candidates: candidates.length });
}

/** Boundaries `b` (a fact goes before `messages[b]`) inside the compacted region, outside tool groups. */
function plantingBoundaries(messages: readonly Message[], plan: PlantProbeInput['plan']): number[] {
  const compacted = (index: number): boolean => {
    const fate = plan.fates[index];
    return (
      index >= plan.headEnd && index < plan.tailStart && (fate === FATE.summarized || fate === FATE.dropped)
    );
  };
  const boundaries: number[] = [];
  for (let index = 1; index < messages.length; index += 1) {
    if (!compacted(index - 1) || !compacted(index)) continue;
    if (hasToolCalls(messages[index - 1]!) || messages[index]!.role === 'tool') continue;
    boundaries.push(index);
  }
  return boundaries;
}
