/**
 * A canonical text form of any result value, and short digests of it, for differential tests:
 * two values get the same text exactly when they are the same data. Typed arrays, maps, sets,
 * bigints, class instances (by their class name), non-finite numbers and -0 are spelled out
 * rather than lost as JSON.stringify would lose them. Key order is kept inside messages (a
 * message's key order changes its Python repr, so it is behaviour) and sorted elsewhere.
 */
import { createHash } from 'node:crypto';

const isMessageLike = (value: Record<string, unknown>): boolean => typeof value.role === 'string';

function canonical(value: unknown, keepOrder: boolean): unknown {
  if (value === undefined) return { $undefined: true };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return { $number: '-0' };
    return Number.isFinite(value) ? value : { $number: String(value) };
  }
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (typeof value === 'function') return { $function: value.name };
  if (ArrayBuffer.isView(value)) {
    return { $typed: value.constructor.name, values: Array.from(value as unknown as ArrayLike<number>) };
  }
  if (Array.isArray(value)) return value.map((item) => canonical(item, keepOrder));
  if (value instanceof Map)
    return {
      $map: [...value.entries()].map(([key, item]) => [
        canonical(key, keepOrder),
        canonical(item, keepOrder),
      ]),
    };
  if (value instanceof Set) return { $set: [...value].map((item) => canonical(item, keepOrder)) };
  const record = value as Record<string, unknown>;
  const prototype = Object.getPrototypeOf(record) as { constructor?: { name?: string } } | null;
  const className = prototype && prototype !== Object.prototype ? (prototype.constructor?.name ?? '?') : null;
  const ordered = keepOrder || isMessageLike(record);
  const keys = Object.keys(record);
  if (!ordered) keys.sort();
  const out: Record<string, unknown> = className ? { $class: className } : {};
  // An own key whose value is undefined is data too (`{a: undefined}` is not `{}`).
  for (const key of keys) out[key] = canonical(record[key], ordered);
  return ordered ? { $keys: keys, ...out } : out;
}

/** The canonical JSON text of a value. Lone surrogates come out escaped, so the text is well-formed. */
export const canonicalText = (value: unknown): string => JSON.stringify(canonical(value, false));

/** The canonical value itself (for full fixtures a reader can diff). */
export const canonicalValue = (value: unknown): unknown => JSON.parse(canonicalText(value));

/** First 16 hex digits of the SHA-256 of the canonical text: any one-character change alters it. */
export const digestOf = (value: unknown): string =>
  createHash('sha256').update(canonicalText(value), 'utf8').digest('hex').slice(0, 16);

/**
 * One digest per field, descending into the named fields (`compaction`, then `compaction.hermes`
 * …), so a failing comparison says which part of a result changed.
 */
export function fieldDigests(
  value: Record<string, unknown>,
  descend: readonly string[] = [],
  prefix = '',
): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const key of Object.keys(value).sort()) {
    const path = prefix ? `${prefix}.${key}` : key;
    const item = value[key];
    if (descend.includes(path) && item !== null && typeof item === 'object' && !Array.isArray(item)) {
      Object.assign(digests, fieldDigests(item as Record<string, unknown>, descend, path));
      digests[`${path}.$keys`] = digestOf(Object.keys(item).sort());
    } else digests[path] = digestOf(item);
  }
  return digests;
}
