/**
 * How long a provider asked us to wait, from `retry-after-ms` (OpenAI, milliseconds) or
 * `retry-after` (seconds, or an HTTP date). Undefined when absent or unreadable; never negative.
 *
 * @param nowMs the current time, for the HTTP-date form (core takes no clock of its own).
 * @see https://www.rfc-editor.org/rfc/rfc9110#field.retry-after
 */
export function parseRetryAfterMs(
  headers: Readonly<Record<string, string>>,
  nowMs: number,
): number | undefined {
  const milliseconds = headers['retry-after-ms'];
  if (milliseconds !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(milliseconds))
    return Math.max(0, Number(milliseconds));
  const value = headers['retry-after'];
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
