/**
 * `parts.join(separator)` for a text that may never be read whole: the parts chained with `+`,
 * pairwise, so nothing is copied.
 *
 * A JavaScript engine keeps `a + b` of two strings (13 characters or more in V8) as a pair of
 * references (a rope) and copies the characters only when something reads inside the result (a
 * regex, `indexOf`, `JSON.stringify`, a structured clone); `join` copies at once. A compaction's
 * summary prompt is megabytes of text that most compactions never read whole (a replay with a
 * stub summariser, the comparison, the CLI's figures) and that a real call copies anyway when it
 * writes the request body. The copy is new memory: in V8 a string over 128 KiB gets pages of its
 * own (~11 µs per 4 KiB page on one bench VM: 10–15 ms for a 1.7M-character two-byte prompt),
 * and flat pieces small enough for the young generation are copied again by every scavenge they
 * survive. Chained pairwise, the rope is about log2(parts) deep, so the first reader flattens it
 * in one linear pass, as fast as `join` would have been.
 *
 * The result equals `parts.join(separator)` character for character.
 */
export function joinAsRope(parts: readonly string[], separator: string): string {
  if (parts.length === 0) return '';
  let level: readonly string[] = parts;
  while (level.length > 1) {
    const next = new Array<string>(Math.ceil(level.length / 2));
    for (let i = 0; i < level.length; i += 2) {
      next[i >> 1] = i + 1 < level.length ? level[i]! + separator + level[i + 1]! : level[i]!;
    }
    level = next;
  }
  return level[0]!;
}
