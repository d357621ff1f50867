import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import type { ImportContext } from './import-context.ts';
import type { SourceLocation } from './import-warning.ts';

/** Shown instead of a huge line in a warning. */
const LINE_PREVIEW_CHARS = 40;

/** One JSONL line, parsed: blank, an object for the format's parser, or a problem to report. */
export type JsonlLine =
  | { kind: 'blank' }
  | { kind: 'record'; record: Record<string, unknown>; at: SourceLocation }
  | { kind: 'problem'; at: SourceLocation; reason: string };

export function parseJsonlLine(text: string, lineNumber: number): JsonlLine {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { kind: 'blank' };
  const at: SourceLocation = { line: lineNumber };
  const parsed = safeParseJson(trimmed);
  if (!parsed.ok) return { kind: 'problem', at, reason: `is not JSON (${preview(trimmed)})` };
  if (!isPlainObject(parsed.value)) {
    return { kind: 'problem', at, reason: `is JSON but not an object (${describeJsonKind(parsed.value)})` };
  }
  return { kind: 'record', record: parsed.value, at };
}

/**
 * Parses one JSONL line. Blank lines are ignored; a line that is not JSON, or is JSON but not
 * an object, is skipped with a warning. Returns the object for the format's parser.
 */
export function readJsonlLine(
  text: string,
  lineNumber: number,
  context: ImportContext,
): { record: Record<string, unknown>; at: SourceLocation } | undefined {
  const line = parseJsonlLine(text, lineNumber);
  if (line.kind === 'problem') context.skipLine(line.at, line.reason);
  return line.kind === 'record' ? line : undefined;
}

export function describeJsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > LINE_PREVIEW_CHARS ? `${flat.slice(0, LINE_PREVIEW_CHARS)}…` : flat);
}
