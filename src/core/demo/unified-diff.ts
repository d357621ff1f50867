/** Lines of context around a change, as `diff -u` and Hermes' patch tool print them. */
const CONTEXT_LINES = 3;

/**
 * The unified diff of replacing the single occurrence of `oldString` in `before` with
 * `newString`: one hunk with three lines of context, lines matched by longest common
 * subsequence like `diff`. Returns undefined when `oldString` is not in `before`, which
 * the patch tool would report as an error.
 */
export function unifiedDiffForReplace(
  path: string,
  before: string,
  oldString: string,
  newString: string,
): string | undefined {
  const at = before.indexOf(oldString);
  if (at === -1) return undefined;
  const after = before.slice(0, at) + newString + before.slice(at + oldString.length);
  const beforeLines = splitLines(before);
  const afterLines = splitLines(after);

  // Trim the common prefix and suffix; only the region between is diffed line by line.
  let prefix = 0;
  while (
    prefix < beforeLines.length &&
    prefix < afterLines.length &&
    beforeLines[prefix] === afterLines[prefix]
  )
    prefix++;
  let suffix = 0;
  while (
    suffix < beforeLines.length - prefix &&
    suffix < afterLines.length - prefix &&
    beforeLines[beforeLines.length - 1 - suffix] === afterLines[afterLines.length - 1 - suffix]
  )
    suffix++;
  const removedRegion = beforeLines.slice(prefix, beforeLines.length - suffix);
  const addedRegion = afterLines.slice(prefix, afterLines.length - suffix);

  const hunkStart = Math.max(0, prefix - CONTEXT_LINES);
  const trailingContext = Math.min(suffix, CONTEXT_LINES);
  const body: string[] = [];
  for (let index = hunkStart; index < prefix; index++) body.push(` ${beforeLines[index]}`);
  body.push(...diffLines(removedRegion, addedRegion));
  const suffixStart = beforeLines.length - suffix;
  for (let index = suffixStart; index < suffixStart + trailingContext; index++)
    body.push(` ${beforeLines[index]}`);

  const beforeCount = prefix - hunkStart + removedRegion.length + trailingContext;
  const afterCount = prefix - hunkStart + addedRegion.length + trailingContext;
  const header = `@@ -${hunkStart + 1},${beforeCount} +${hunkStart + 1},${afterCount} @@`;
  return [`--- a/${path}`, `+++ b/${path}`, header, ...body].join('\n') + '\n';
}

/** Line-level diff by longest common subsequence; fine for the few dozen lines of a patch. */
function diffLines(removed: readonly string[], added: readonly string[]): string[] {
  const rows = removed.length + 1;
  const columns = added.length + 1;
  // common[i][j] = length of the LCS of removed[i..] and added[j..].
  const common = new Array<number>(rows * columns).fill(0);
  for (let i = removed.length - 1; i >= 0; i--) {
    for (let j = added.length - 1; j >= 0; j--) {
      common[i * columns + j] =
        removed[i] === added[j]
          ? (common[(i + 1) * columns + j + 1] ?? 0) + 1
          : Math.max(common[(i + 1) * columns + j] ?? 0, common[i * columns + j + 1] ?? 0);
    }
  }
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < removed.length || j < added.length) {
    if (i < removed.length && j < added.length && removed[i] === added[j]) {
      lines.push(` ${removed[i]}`);
      i++;
      j++;
    } else if (
      j >= added.length ||
      (i < removed.length && (common[(i + 1) * columns + j] ?? 0) >= (common[i * columns + j + 1] ?? 0))
    ) {
      lines.push(`-${removed[i]}`);
      i++;
    } else {
      lines.push(`+${added[j]}`);
      j++;
    }
  }
  return lines;
}

function splitLines(text: string): string[] {
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}
