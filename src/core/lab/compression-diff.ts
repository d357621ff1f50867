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
 * is lined up with the kept input message it came from — the same object first, wherever it
 * stands, then the rest in order by role and tool call id — (verbatim, or changed by pruning, the
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

  // A kept message a compaction passed through is the input object itself: matched first, wherever
  // it stands (pins put back after the summary come out of order). The rest are lined up in order.
  const byIdentity = new Map<Message, number>();
  for (let position = 0; position < candidates.length; position++)
    byIdentity.set(before[candidates[position]!]!, position);
  const matched = new Array<number | null>(after.length).fill(null);
  const used = new Uint8Array(candidates.length);
  after.forEach((message, at) => {
    const position = byIdentity.get(message);
    if (position === undefined || used[position]) return;
    used[position] = 1;
    matched[at] = position;
  });
  const open = candidates.flatMap((_, position) => (used[position] ? [] : [position]));

  const entries: AfterEntry[] = [];
  const removed: number[] = [];
  let next = 0;
  after.forEach((message, at) => {
    const identical = matched[at];
    if (identical !== null && identical !== undefined) {
      entries.push({ status: 'kept', sourceIndex: candidates[identical]! });
      return;
    }
    let match = -1;
    for (let ahead = 0; ahead <= LOOKAHEAD && next + ahead < open.length; ahead++) {
      const candidate = before[candidates[open[next + ahead]!]!]!;
      if (sameSlot(candidate, message)) {
        match = next + ahead;
        break;
      }
      // Only orphan tool results are ever dropped, so only they may be skipped over.
      if (candidate.role !== 'tool') break;
    }
    if (match < 0) {
      entries.push({ status: 'inserted', sourceIndex: null });
      return;
    }
    for (let skipped = next; skipped < match; skipped++) removed.push(candidates[open[skipped]!]!);
    const sourceIndex = candidates[open[match]!]!;
    entries.push({ status: sameMessage(before[sourceIndex]!, message) ? 'kept' : 'changed', sourceIndex });
    next = match + 1;
  });
  for (let skipped = next; skipped < open.length; skipped++) removed.push(candidates[open[skipped]!]!);
  removed.sort((left, right) => left - right);

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
