import type { FactSink } from './fact-collector.ts';
import { findProseIdentifiers } from './find-identifiers.ts';
import { findPaths } from './find-paths.ts';
import { findUrls } from './find-urls.ts';
import { scanWindows } from './scan-windows.ts';

/**
 * The facts any free text can name: file paths, URLs and distinctive symbols. Long texts are read
 * at their start and end only (`scanWindows`).
 *
 * @example findProseFacts('Updated `parse_args()` in src/cli.py, see https://docs.python.org/3/', sink)
 */
export function findProseFacts(text: string, sink: FactSink): void {
  for (const window of scanWindows(text)) {
    findPaths(window, sink);
    findUrls(window, sink);
    findProseIdentifiers(window, sink);
  }
}
