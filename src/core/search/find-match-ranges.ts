import type { MatchRange } from './search-snippet.ts';

/** At most this many ranges per text: highlighting a 10 MB output stays bounded. */
export const MAX_MATCH_RANGES = 1000;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `query` (trimmed) occurs in `text`, case-insensitively, as ranges of the original text
 * (so a highlight never shifts where lower-casing changes a string's length), in order and
 * non-overlapping.
 *
 * @example findMatchRanges('Read a.txt, then A.TXT', 'a.txt') // [{start: 5, end: 10}, {start: 17, end: 22}]
 */
export function findMatchRanges(text: string, query: string, limit = MAX_MATCH_RANGES): MatchRange[] {
  const needle = query.trim();
  if (needle === '' || text === '') return [];
  const pattern = new RegExp(escapeRegExp(needle), 'giu');
  const ranges: MatchRange[] = [];
  for (const match of text.matchAll(pattern)) {
    ranges.push({ start: match.index, end: match.index + match[0].length });
    if (ranges.length >= limit) break;
  }
  return ranges;
}
