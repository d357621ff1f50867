/**
 * tiktoken's byte-pair merge, counting only, over a rank table keyed by raw bytes. gpt-tokenizer
 * 4.0.0 looks byte sequences up as decoded strings, and its decoder drops a leading U+FEFF, so
 * every token that starts with a byte-order mark (9 in o200k_base, 8 in cl100k_base) is never
 * found and text containing U+FEFF is counted wrong. This slow but exact path counts that text.
 */

/** A rank table entry as gpt-tokenizer ships it: text, or the raw bytes when not valid UTF-8. */
export type RankEntry = string | readonly number[];

const utf8 = new TextEncoder();

/** One byte per char, so a byte sequence can key a Map. */
const byteKey = (bytes: Uint8Array | readonly number[], start = 0, end = bytes.length): string => {
  let key = '';
  for (let index = start; index < end; index++) key += String.fromCharCode(bytes[index]!);
  return key;
};

/**
 * A counter for text split by `splitPattern` (the encoding's pre-tokeniser) and merged with the
 * ranks. Building the byte-keyed table takes a few hundred milliseconds, so callers build it only
 * when they first need it.
 */
export function createByteRankCounter(
  ranks: readonly RankEntry[],
  splitPattern: RegExp,
): (text: string) => number {
  const rankByBytes = new Map<string, number>();
  let longestTokenBytes = 0;
  ranks.forEach((entry, rank) => {
    const key = byteKey(typeof entry === 'string' ? utf8.encode(entry) : entry);
    rankByBytes.set(key, rank);
    longestTokenBytes = Math.max(longestTokenBytes, key.length);
  });
  const split = new RegExp(splitPattern.source, 'gu');

  // Spans longer than any token are never looked up, so a long run of one character stays cheap.
  const rankOf = (piece: Uint8Array, start: number, end: number): number =>
    end - start > longestTokenBytes
      ? Number.POSITIVE_INFINITY
      : (rankByBytes.get(byteKey(piece, start, end)) ?? Number.POSITIVE_INFINITY);

  /** tiktoken `_byte_pair_merge`: merge the lowest-ranked adjacent pair until none is a token. */
  const countPiece = (piece: Uint8Array): number => {
    if (piece.length <= 1 || rankOf(piece, 0, piece.length) !== Number.POSITIVE_INFINITY) return 1;
    const starts: number[] = [];
    const pairRanks: number[] = [];
    for (let index = 0; index <= piece.length; index++) {
      starts.push(index);
      pairRanks.push(index + 2 <= piece.length ? rankOf(piece, index, index + 2) : Number.POSITIVE_INFINITY);
    }
    // The rank of the part at `index` merged with the part after it.
    const mergedRank = (index: number): number =>
      index + 2 < starts.length
        ? rankOf(piece, starts[index]!, starts[index + 2]!)
        : Number.POSITIVE_INFINITY;
    for (;;) {
      let best = -1;
      let bestRank = Number.POSITIVE_INFINITY;
      for (let index = 0; index < starts.length - 1; index++) {
        if (pairRanks[index]! < bestRank) {
          bestRank = pairRanks[index]!;
          best = index;
        }
      }
      if (best < 0) break;
      starts.splice(best + 1, 1);
      pairRanks.splice(best + 1, 1);
      pairRanks[best] = mergedRank(best);
      if (best > 0) pairRanks[best - 1] = mergedRank(best - 1);
    }
    return starts.length - 1;
  };

  return (text) => {
    let tokens = 0;
    for (const [piece] of text.matchAll(split)) tokens += countPiece(utf8.encode(piece));
    return tokens;
  };
}
