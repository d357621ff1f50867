/**
 * `parts.join(separator)` for a text that may never be read whole: flat pieces of at most
 * `ROPE_PIECE_CHARS` characters (a longer part is a piece of its own), chained with `+`.
 *
 * A JavaScript engine keeps `a + b` of two long strings as a pair of references (a rope) and
 * copies the characters only when something reads inside the result (a regex, `indexOf`,
 * `JSON.stringify`, a structured clone); `join` copies at once. A compaction's summary prompt
 * is megabytes of text that most compactions never read whole (a replay with a stub summariser,
 * the comparison, the CLI's figures) and that a real call copies anyway when it writes the
 * request body. In V8, a string over 128 KiB is allocated in pages of its own, new memory every
 * time (~11 µs per 4 KiB page on the bench VM: 10–15 ms for a 1.7M-character two-byte prompt),
 * while the pieces fit the young generation, whose pages are reused.
 *
 * The result equals `parts.join(separator)` character for character.
 */
export const ROPE_PIECE_CHARS = 1 << 15;

export function joinAsRope(parts: readonly string[], separator: string): string {
  const pieces: string[] = [];
  let start = 0;
  while (start < parts.length) {
    let end = start + 1;
    let chars = parts[start]!.length;
    while (end < parts.length && chars + separator.length + parts[end]!.length <= ROPE_PIECE_CHARS) {
      chars += separator.length + parts[end]!.length;
      end++;
    }
    pieces.push(end - start === 1 ? parts[start]! : parts.slice(start, end).join(separator));
    start = end;
  }
  // Chained pairwise, so the rope is about log2(pieces) deep rather than one level per piece.
  let level = pieces;
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(i + 1 < level.length ? level[i]! + separator + level[i + 1]! : level[i]!);
    }
    level = next;
  }
  return level[0] ?? '';
}
