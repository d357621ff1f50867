import { FATE } from '../strategies/strategy.ts';
import type { Message } from '../transcript/message.ts';

export type AfterStatus = 'kept' | 'changed' | 'inserted';

export interface AfterEntry {
  readonly status: AfterStatus;
  /** The input message this one came from; null for inserted ones (summary, stub results). */
  readonly sourceIndex: number | null;
}

export interface CompressionDiff {
  /** One entry per output message. */
  readonly after: readonly AfterEntry[];
  /** From the first to the last input message summarised or dropped (empty when none was). */
  readonly summarized: { readonly start: number; readonly end: number };
  /** Kept messages that the tool-pair repair dropped (orphan results). */
  readonly removed: readonly number[];
  readonly counts: {
    readonly kept: number;
    readonly changed: number;
    readonly summarized: number;
    readonly inserted: number;
    readonly removed: number;
  };
}

/** How far ahead a removed message may be skipped when lining the lists up. */
const LOOKAHEAD = 4;

/** Two messages occupy the same slot: the output one is the input one, possibly edited. */
function sameSlot(before: Message, after: Message): boolean {
  if (before.role !== after.role) return false;
  if (before.role === 'tool') return before.tool_call_id === after.tool_call_id;
  return true;
}

function sameMessage(before: Message, after: Message): boolean {
  return before === after || JSON.stringify(before) === JSON.stringify(after);
}

/**
 * The before/after diff of one compression, for the replay's assembly step: each output message
 * is lined up with the kept input message it came from (verbatim, or changed by pruning, the
 * compaction note or a merged summary); anything that lines up with none was inserted (a
 * summary, a stub result, a re-attached file); kept messages that no output matches were removed
 * by the tool-pair repair. What was kept is given as Hermes' head/tail boundaries or, for any
 * strategy, as the fates of the input messages (`FATE`: kept and shortened ones stay).
 */
export function diffCompression(
  before: readonly Message[],
  after: readonly Message[],
  kept: { readonly headEnd: number; readonly tailStart: number } | Uint8Array | null,
): CompressionDiff {
  const candidates: number[] = [];
  let summarizedStart = before.length;
  let summarizedEnd = before.length;
  let summarizedCount = 0;
  if (kept instanceof Uint8Array) {
    for (let index = 0; index < before.length; index++) {
      const fate = kept[index] ?? FATE.kept;
      if (fate === FATE.kept || fate === FATE.pruned) {
        candidates.push(index);
        continue;
      }
      summarizedCount++;
      if (summarizedStart === before.length) summarizedStart = index;
      summarizedEnd = index + 1;
    }
  } else {
    const headEnd = kept ? Math.min(kept.headEnd, before.length) : before.length;
    const tailStart = kept ? Math.max(headEnd, Math.min(kept.tailStart, before.length)) : before.length;
    for (let index = 0; index < headEnd; index++) candidates.push(index);
    for (let index = tailStart; index < before.length; index++) candidates.push(index);
    summarizedStart = headEnd;
    summarizedEnd = tailStart;
    summarizedCount = tailStart - headEnd;
  }

  const entries: AfterEntry[] = [];
  const removed: number[] = [];
  let next = 0;
  for (const message of after) {
    let match = -1;
    for (let ahead = 0; ahead <= LOOKAHEAD && next + ahead < candidates.length; ahead++) {
      const candidate = before[candidates[next + ahead]!]!;
      if (sameSlot(candidate, message)) {
        match = next + ahead;
        break;
      }
      // Only orphan tool results are ever dropped, so only they may be skipped over.
      if (candidate.role !== 'tool') break;
    }
    if (match < 0) {
      entries.push({ status: 'inserted', sourceIndex: null });
      continue;
    }
    for (let skipped = next; skipped < match; skipped++) removed.push(candidates[skipped]!);
    const sourceIndex = candidates[match]!;
    entries.push({ status: sameMessage(before[sourceIndex]!, message) ? 'kept' : 'changed', sourceIndex });
    next = match + 1;
  }
  for (let skipped = next; skipped < candidates.length; skipped++) removed.push(candidates[skipped]!);

  const count = (status: AfterStatus): number => entries.filter((entry) => entry.status === status).length;
  return {
    after: entries,
    summarized: { start: summarizedStart, end: summarizedEnd },
    removed,
    counts: {
      kept: count('kept'),
      changed: count('changed'),
      summarized: summarizedCount,
      inserted: count('inserted'),
      removed: removed.length,
    },
  };
}
