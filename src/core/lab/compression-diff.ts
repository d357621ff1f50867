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
  /** The input range replaced by the summary (empty when nothing was summarised). */
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
 * is lined up with the head or tail message it came from (kept verbatim, or changed by pruning,
 * the compaction note or a merged summary); anything that lines up with none was inserted (the
 * summary, 2026-04 stub results); head and tail messages that no output matches were removed by
 * the tool-pair repair. The middle `[headEnd, tailStart)` is what the summary replaced.
 */
export function diffCompression(
  before: readonly Message[],
  after: readonly Message[],
  boundaries: { readonly headEnd: number; readonly tailStart: number } | null,
): CompressionDiff {
  const headEnd = boundaries ? Math.min(boundaries.headEnd, before.length) : before.length;
  const tailStart = boundaries
    ? Math.max(headEnd, Math.min(boundaries.tailStart, before.length))
    : before.length;
  const candidates: number[] = [];
  for (let index = 0; index < headEnd; index++) candidates.push(index);
  for (let index = tailStart; index < before.length; index++) candidates.push(index);

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
    summarized: { start: headEnd, end: tailStart },
    removed,
    counts: {
      kept: count('kept'),
      changed: count('changed'),
      summarized: tailStart - headEnd,
      inserted: count('inserted'),
      removed: removed.length,
    },
  };
}
