/**
 * Leaves out of `actual` the optional output keys (`VectorAdapter.optionalOutputKeys`) that the
 * expected value does not record, so a vector may omit a diagnostic echo without the case
 * failing. Only the declared paths are touched, and only where the expected value lacks the
 * key: a key the vector has is always compared, and an expected key the adapter does not
 * produce still fails. Returns a copy; `actual` is not modified.
 */
export function dropUnrecordedOptionalOutputs(
  actual: unknown,
  expected: unknown,
  paths: readonly string[],
): unknown {
  let result = actual;
  for (const path of paths) result = dropAt(result, expected, parsePath(path));
  return result;
}

type Segment = { kind: 'key'; key: string } | { kind: 'items' } | { kind: 'values' };

function parsePath(path: string): Segment[] {
  const segments: Segment[] = [];
  for (const part of path.split('.')) {
    const items = part.endsWith('[]');
    const key = items ? part.slice(0, -2) : part;
    if (key === '*') segments.push({ kind: 'values' });
    else if (key !== '') segments.push({ kind: 'key', key });
    if (items) segments.push({ kind: 'items' });
  }
  return segments;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function dropAt(actual: unknown, expected: unknown, segments: readonly Segment[]): unknown {
  const [segment, ...rest] = segments;
  if (!segment) return actual;
  if (segment.kind === 'items') {
    if (!Array.isArray(actual) || !Array.isArray(expected)) return actual;
    return actual.map((item, index) => dropAt(item, expected[index], rest));
  }
  if (!isRecord(actual) || !isRecord(expected)) return actual;
  if (segment.kind === 'values') {
    const copy: Record<string, unknown> = { ...actual };
    for (const key of Object.keys(copy)) copy[key] = dropAt(copy[key], expected[key], rest);
    return copy;
  }
  if (!(segment.key in actual)) return actual;
  if (rest.length === 0) {
    if (segment.key in expected) return actual;
    const copy: Record<string, unknown> = { ...actual };
    delete copy[segment.key];
    return copy;
  }
  return { ...actual, [segment.key]: dropAt(actual[segment.key], expected[segment.key], rest) };
}
