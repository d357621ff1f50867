import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import type { ImportContext } from './import-context.ts';
import type { SourceLocation } from './import-warning.ts';
import { splitJoinedJsonRecords } from './split-joined-json-records.ts';

/** Shown instead of a huge line in a warning. */
const LINE_PREVIEW_CHARS = 40;

/**
 * One JSONL line, parsed: blank, an object for the format's parser, several objects written
 * without a newline between them, or a problem to report.
 */
export type JsonlLine =
  | { kind: 'blank' }
  | { kind: 'record'; record: Record<string, unknown>; at: SourceLocation }
  | { kind: 'joined'; records: Record<string, unknown>[]; at: SourceLocation }
  | { kind: 'problem'; at: SourceLocation; reason: string };

export function parseJsonlLine(text: string, lineNumber: number): JsonlLine {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { kind: 'blank' };
  const at: SourceLocation = { line: lineNumber };
  const parsed = safeParseJson(trimmed);
  if (!parsed.ok)
    return (
      readJoinedRecords(trimmed, at) ?? { kind: 'problem', at, reason: `is not JSON (${preview(trimmed)})` }
    );
  if (!isPlainObject(parsed.value)) {
    return { kind: 'problem', at, reason: `is JSON but not an object (${describeJsonKind(parsed.value)})` };
  }
  return { kind: 'record', record: parsed.value, at };
}

/** The objects of a line holding several, when every one of them parses. */
function readJoinedRecords(line: string, at: SourceLocation): JsonlLine | undefined {
  const pieces = splitJoinedJsonRecords(line);
  if (!pieces) return undefined;
  const records: Record<string, unknown>[] = [];
  for (const piece of pieces) {
    const parsed = safeParseJson(piece);
    if (!parsed.ok || !isPlainObject(parsed.value)) return undefined;
    records.push(parsed.value);
  }
  return { kind: 'joined', records, at };
}

/** The objects a parsed line hands to a format's parser (none for blank and broken lines). */
export function lineRecords(line: JsonlLine): Record<string, unknown>[] {
  if (line.kind === 'record') return [line.record];
  return line.kind === 'joined' ? line.records : [];
}

/**
 * Hands one parsed line to a parser: broken lines are skipped with a warning, joined records
 * are read one by one with a warning naming the line.
 */
export function feedJsonlLine(
  line: JsonlLine,
  context: ImportContext,
  accept: (record: Record<string, unknown>, at: SourceLocation) => void,
): void {
  if (line.kind === 'problem') context.skipLine(line.at, line.reason);
  else if (line.kind === 'record') accept(line.record, line.at);
  else if (line.kind === 'joined') {
    context.repaired(
      line.at,
      `holds ${line.records.length} JSON records with no line break between them; read as ${line.records.length} records`,
    );
    for (const record of line.records) accept(record, line.at);
  }
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
