import { termMatches, type SearchQueryTerm } from './search-query.ts';
import { forEachTermOccurrence } from './search-terms.ts';

/** A half-open range of UTF-16 offsets, `[start, end)`. */
export interface MatchRange {
  start: number;
  end: number;
}

/** A short excerpt around the first match; `matches` index into `text` for highlighting. */
export interface SearchSnippet {
  text: string;
  matches: MatchRange[];
}

export const SNIPPET_MAXIMUM_CHARS = 160;
/** How much text before the first match the excerpt shows. */
export const SNIPPET_CONTEXT_BEFORE_CHARS = 48;

const ELLIPSIS = '…';
/** How far the start may move forward to begin at a word rather than mid-word. */
const WORD_BOUNDARY_SEARCH_CHARS = 16;

/**
 * Where the query's terms occur in `text`, merged where they touch or overlap (overlapping CJK
 * bigrams), in order.
 */
export function findMatchRanges(text: string, query: readonly SearchQueryTerm[]): MatchRange[] {
  const ranges: MatchRange[] = [];
  forEachTermOccurrence(text, (occurrence) => {
    if (!query.some((queryTerm) => termMatches(queryTerm, occurrence.term))) return;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && occurrence.start <= last.end) last.end = Math.max(last.end, occurrence.end);
    else ranges.push({ start: occurrence.start, end: occurrence.end });
  });
  return ranges;
}

/**
 * An excerpt of at most about `maximumChars` around the first match, whitespace runs collapsed
 * to one space, `…` where it was cut, with the match ranges inside it. Returning ranges
 * (not markup) leaves escaping to the renderer.
 *
 * @example
 * buildSearchSnippet('We moved the tail cut.', parseSearchQuery('tail'))
 * // { text: 'We moved the tail cut.', matches: [{ start: 13, end: 17 }] }
 */
export function buildSearchSnippet(
  text: string,
  query: readonly SearchQueryTerm[],
  maximumChars: number = SNIPPET_MAXIMUM_CHARS,
): SearchSnippet {
  const ranges = findMatchRanges(text, query);
  const firstMatch = ranges[0]?.start ?? 0;
  let windowStart = Math.max(0, firstMatch - SNIPPET_CONTEXT_BEFORE_CHARS);
  if (windowStart > 0 && !/\s/.test(text[windowStart - 1]!)) {
    // Start at a word boundary when one is near, rather than mid-word.
    const space = text
      .slice(windowStart, Math.min(firstMatch, windowStart + WORD_BOUNDARY_SEARCH_CHARS))
      .search(/\s/);
    if (space !== -1) windowStart += space + 1;
  }
  if (isLowSurrogate(text.charCodeAt(windowStart))) windowStart++;
  let windowEnd = Math.min(text.length, windowStart + maximumChars);
  if (windowEnd < text.length && isLowSurrogate(text.charCodeAt(windowEnd))) windowEnd--;

  const prefix = windowStart > 0 ? ELLIPSIS : '';
  let out = prefix;
  // positions[i] is where text[windowStart + i] landed in `out` (or would have, if collapsed away).
  const positions: number[] = [];
  for (let index = windowStart; index < windowEnd; index++) {
    positions.push(out.length);
    const character = text[index]!;
    if (/\s/.test(character)) {
      if (out.length > prefix.length && !out.endsWith(' ')) out += ' ';
    } else {
      out += character;
    }
  }
  positions.push(out.length);
  out = out.trimEnd();
  const body = out.length;
  if (windowEnd < text.length) out += ELLIPSIS;

  const position = (offset: number): number => Math.min(body, positions[offset - windowStart]!);
  const matches: MatchRange[] = [];
  for (const range of ranges) {
    const start = Math.max(range.start, windowStart);
    const end = Math.min(range.end, windowEnd);
    if (start >= end) continue;
    const mapped = { start: position(start), end: position(end) };
    if (mapped.start < mapped.end) matches.push(mapped);
  }
  return { text: out, matches };
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
