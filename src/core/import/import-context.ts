import type { ImportWarning, ImportWarningKind, SourceLocation } from './import-warning.ts';

/**
 * Enough to explain what went wrong in a bad file without flooding the UI; the rest are counted
 * in `stats.suppressedWarnings`.
 */
export const MAX_LISTED_WARNINGS = 500;

/** Collects warnings and skip counts while one file is read. */
export interface ImportContext {
  readonly warnings: ImportWarning[];
  readonly skippedLines: number;
  readonly skippedParts: number;
  readonly suppressedWarnings: number;
  /** A whole line or top-level entry was dropped. */
  skipLine(at: SourceLocation, reason: string): void;
  /** A block, field or tool result inside a usable record was dropped. */
  skipPart(at: SourceLocation, reason: string): void;
  /** Input was kept in a fixed-up form. */
  repaired(at: SourceLocation, reason: string): void;
  /** Information only. */
  note(at: SourceLocation, reason: string): void;
}

export function createImportContext(maxListedWarnings = MAX_LISTED_WARNINGS): ImportContext {
  const warnings: ImportWarning[] = [];
  let skippedLines = 0;
  let skippedParts = 0;
  let suppressedWarnings = 0;

  const add = (kind: ImportWarningKind, at: SourceLocation, reason: string): void => {
    if (warnings.length >= maxListedWarnings) {
      suppressedWarnings += 1;
      return;
    }
    const warning: ImportWarning = { kind, reason };
    if (at.line !== undefined) warning.line = at.line;
    if (at.path !== undefined) warning.path = at.path;
    warnings.push(warning);
  };

  return {
    warnings,
    get skippedLines() {
      return skippedLines;
    },
    get skippedParts() {
      return skippedParts;
    },
    get suppressedWarnings() {
      return suppressedWarnings;
    },
    skipLine(at, reason) {
      skippedLines += 1;
      add('skipped-line', at, reason);
    },
    skipPart(at, reason) {
      skippedParts += 1;
      add('skipped-part', at, reason);
    },
    repaired(at, reason) {
      add('repaired', at, reason);
    },
    note(at, reason) {
      add('note', at, reason);
    },
  };
}
