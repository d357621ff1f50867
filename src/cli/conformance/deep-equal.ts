/** Structural equality for JSON values. Reports the first differing path for diagnostics. */
export function firstDifference(actual: unknown, expected: unknown, path = '$'): string | null {
  if (Object.is(actual, expected)) return null;
  if (typeof actual === 'number' && typeof expected === 'number') {
    return actual === expected ? null : `${path}: expected ${expected}, got ${actual}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${describe(actual)}`;
    if (actual.length !== expected.length) {
      const shorter = Math.min(actual.length, expected.length);
      for (let i = 0; i < shorter; i++) {
        const difference = firstDifference(actual[i], expected[i], `${path}[${i}]`);
        if (difference) return difference;
      }
      return `${path}: expected ${expected.length} items, got ${actual.length}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const difference = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${path}: expected an object, got ${describe(actual)}`;
    }
    const expectedRecord = expected as Record<string, unknown>;
    const actualRecord = actual as Record<string, unknown>;
    for (const key of Object.keys(expectedRecord)) {
      if (!(key in actualRecord)) return `${path}.${key}: missing`;
      const difference = firstDifference(actualRecord[key], expectedRecord[key], `${path}.${key}`);
      if (difference) return difference;
    }
    for (const key of Object.keys(actualRecord)) {
      if (!(key in expectedRecord) && actualRecord[key] !== undefined)
        return `${path}.${key}: unexpected key`;
    }
    return null;
  }
  return `${path}: expected ${describe(expected)}, got ${describe(actual)}`;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
