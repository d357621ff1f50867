/**
 * Reads a pinned counterexample of a property test from `tests/fixtures/property-regressions/`.
 * They are concrete inputs that once failed, replayed as fast-check `examples` (or plain tests)
 * on every run, so they keep being checked whatever the arbitraries become.
 *
 * Two spellings keep large ones readable; both are expanded on reading:
 * - `{ "repeat": "word\n", "chars": 54226 }` stands for that text repeated and cut to `chars`
 *   UTF-16 units;
 * - a tool call's `"arguments"` may be written as a JSON object; it is read as its
 *   `JSON.stringify`, the string the message really holds.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const REGRESSIONS_DIR = resolve(import.meta.dirname, '../fixtures/property-regressions');

const isRepeat = (value: unknown): value is { repeat: string; chars: number } =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length === 2 &&
  typeof (value as { repeat?: unknown }).repeat === 'string' &&
  typeof (value as { chars?: unknown }).chars === 'number';

export function readPropertyRegression<T>(relativePath: string): T {
  const text = readFileSync(resolve(REGRESSIONS_DIR, relativePath), 'utf8');
  return JSON.parse(text, (key, value: unknown) => {
    if (isRepeat(value))
      return value.repeat.repeat(Math.ceil(value.chars / value.repeat.length)).slice(0, value.chars);
    if (key === 'arguments' && typeof value === 'object' && value !== null) return JSON.stringify(value);
    return value;
  }) as T;
}

/** The text of a pinned input that is not JSON (a mutated file), as it was read. */
export function readPropertyRegressionText(relativePath: string): string {
  return readFileSync(resolve(REGRESSIONS_DIR, relativePath), 'utf8');
}
