import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';

/** Longer texts are shown raw: parsing and re-laying out megabytes would stall the page for a view. */
export const MAX_READABLE_JSON_CHARS = 1_000_000;

const INDENT = '  ';

/**
 * A JSON object or array laid out for reading: two-space indentation, and the line breaks inside
 * string values shown as line breaks (continued at the value's indentation) instead of `\n`
 * escapes, so a tool's stdout reads as it was printed. Everything else is JSON's own escaping.
 * Null when the text is not a JSON object or array, or too long to lay out.
 *
 * @example formatJsonForReading('{"stdout":"a\\nb","code":0}')
 * // '{\n  "stdout": "a\n    b",\n  "code": 0\n}'
 */
export function formatJsonForReading(text: string): string | null {
  if (text.length > MAX_READABLE_JSON_CHARS) return null;
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return null;
  const parsed = safeParseJson(trimmed);
  if (!parsed.ok || (!isPlainObject(parsed.value) && !Array.isArray(parsed.value))) return null;
  return layout(parsed.value, '');
}

function layout(value: unknown, indent: string): string {
  if (typeof value === 'string') return readableString(value, indent + INDENT);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = indent + INDENT;
    return `[\n${value.map((item) => inner + layout(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const inner = indent + INDENT;
    const lines = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${layout(item, inner)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  // Numbers, booleans and null as JSON writes them.
  return JSON.stringify(value) ?? 'null';
}

/** A quoted string whose own line breaks become line breaks at `continuation`'s indentation. */
function readableString(value: string, continuation: string): string {
  const lines = value.split(/\r?\n/).map((line) => JSON.stringify(line).slice(1, -1));
  return `"${lines.join(`\n${continuation}`)}"`;
}
