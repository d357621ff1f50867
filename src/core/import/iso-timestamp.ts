const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** Latest instant a JavaScript Date can hold, in ms (ECMA-262 §21.4.1.1). */
const MAX_DATE_MS = 8.64e15;

/**
 * An ISO 8601 string from a source timestamp: ISO-looking strings are kept as written (local
 * times stay local), Unix seconds (Hermes `started_at`) or milliseconds are converted to UTC.
 */
export function toIsoTimestamp(value: unknown): string | undefined {
  if (typeof value === 'string') return ISO_DATE_TIME.test(value) ? value : undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  // Seconds until the year 5138; anything larger is already milliseconds.
  const milliseconds = value < 1e11 ? value * 1000 : value;
  if (milliseconds > MAX_DATE_MS) return undefined;
  return new Date(milliseconds).toISOString();
}
