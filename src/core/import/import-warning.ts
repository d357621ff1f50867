/**
 * What a warning is about. `skipped-line` and `skipped-part` mean input was dropped;
 * `repaired` means input was kept in a fixed-up form; `note` is information only.
 */
export type ImportWarningKind = 'skipped-line' | 'skipped-part' | 'repaired' | 'note';

/**
 * A recoverable problem met while importing. `reason` reads as the rest of a sentence after
 * the location: `{ line: 18, reason: 'is not JSON' }` → "line 18 is not JSON".
 */
export interface ImportWarning {
  kind: ImportWarningKind;
  /** 1-based source line (JSONL) when known. */
  line?: number;
  /** JSON path inside the document or the line, e.g. `$.messages[3].content[1]`. */
  path?: string;
  reason: string;
}

/** Where in the source something was found. */
export interface SourceLocation {
  line?: number;
  path?: string;
}

/** One readable line: `line 18 ($.message.content[2]) has unknown block type "fallback"`. */
export function formatImportWarning(warning: ImportWarning): string {
  return `${formatSourceLocation(warning)} ${warning.reason}`.trim();
}

/** `line 18`, `$.messages[3]`, `line 18 ($.message)`, or '' when nothing is known. */
export function formatSourceLocation(location: SourceLocation): string {
  if (location.line !== undefined && location.path) return `line ${location.line} (${location.path})`;
  if (location.line !== undefined) return `line ${location.line}`;
  return location.path ?? '';
}

/** Appends a key or index to a JSON path: `childPath('$.messages', 3)` → `$.messages[3]`. */
export function childPath(path: string | undefined, key: string | number): string {
  const base = path ?? '$';
  return typeof key === 'number' ? `${base}[${key}]` : `${base}.${key}`;
}
