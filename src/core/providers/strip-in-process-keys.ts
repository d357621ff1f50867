/**
 * A shallow copy without the keys that start with `_`: Hermes' in-process flags
 * (`_compressed_summary`, `_db_persisted`, …) never go on the wire.
 */
export function stripInProcessKeys<T extends Record<string, unknown>>(value: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (!key.startsWith('_')) copy[key] = entry;
  }
  return copy as T;
}
