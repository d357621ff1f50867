/**
 * Deepest nesting of a foreign value kept verbatim in a transcript (extra message keys, unknown
 * content parts, tool schemas). Real ones are a few levels deep; a hostile file can nest
 * thousands, which would later overflow recursive code (JSON.stringify, structured clone, the
 * token estimator's repr).
 */
export const MAX_KEPT_VALUE_DEPTH = 64;

/** Whether a value nests no deeper than `maxDepth` arrays/objects. Iterative: safe on any input. */
export function isWithinDepth(value: unknown, maxDepth = MAX_KEPT_VALUE_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return true;
  const stack: { node: object; depth: number }[] = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > maxDepth) return false;
    const children: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return true;
}

/**
 * How many arrays/objects deep a value nests, counting up to `cap` (a hostile file can nest
 * millions deep; the count stops there). Iterative: safe on any input.
 */
export function nestingDepth(value: unknown, cap = 1_000_000): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: { node: object; depth: number }[] = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest >= cap) return cap;
    const children: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return deepest;
}
