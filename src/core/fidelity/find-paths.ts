import type { FactSink } from './fact-collector.ts';
import { normalizeMatchText } from './normalize-match-text.ts';
import { MAX_PATH_CHARACTERS, normalizeFactPath } from './normalize-fact-path.ts';

/** Characters a path token is made of (ASCII only): letters, digits and `_ . ~ @ - /`. */
const PATH_CODES = new Uint8Array(128);
for (const character of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.~@-/') {
  PATH_CODES[character.charCodeAt(0)] = 1;
}
const SLASH = 47;
const DOT = 46;

/**
 * Adds a `path` fact for every file path written in free text (messages, arguments that are not
 * known to be paths): runs of path characters holding a `/` or a `.` that `normalizeFactPath`
 * accepts. One pass over the text; each character is looked at once.
 *
 * @example findPaths('see ./src/app.ts:12 and README.md', sink) // src/app.ts, README.md
 */
export function findPaths(text: string, sink: FactSink): void {
  const length = text.length;
  let index = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code >= 128 || PATH_CODES[code] !== 1) {
      index++;
      continue;
    }
    const start = index;
    let marked = false;
    while (index < length) {
      const next = text.charCodeAt(index);
      if (next >= 128 || PATH_CODES[next] !== 1) break;
      if (next === SLASH || next === DOT) marked = true;
      index++;
    }
    // `https://host/x` arrives as `//host/x` after the colon: URLs are facts of their own.
    if (!marked || index - start > MAX_PATH_CHARACTERS || text.charCodeAt(start - 1) === 58) continue;
    addPath(text.slice(start, index), sink);
  }
}

/** Adds one candidate path (or a known one) as a fact, displayed as written. */
export function addPath(candidate: string, sink: FactSink, known = false): void {
  if (candidate.length > MAX_PATH_CHARACTERS) return;
  const display = candidate.replace(/[.-]+$/, '');
  const path = normalizeFactPath(display, { known });
  if (path !== null) sink.add('path', display, normalizeMatchText(path));
}
