import { termOccurrences } from './search-terms.ts';

/** One term of a search: all must occur in a message (AND); a prefix term matches any term it starts. */
export interface SearchQueryTerm {
  term: string;
  prefix: boolean;
}

/**
 * The terms a query asks for, tokenised exactly as message text is (`search-terms.ts`). The
 * last word matches as a prefix, so results follow the user while they type; a single CJK
 * character is always a prefix (it is the first half of the bigrams it appears in). A CJK run
 * of two or more characters asks for its bigrams only: the run-final character the index also
 * stores would otherwise require the query's last character to end a run in the message too.
 * Repeated terms are asked for once. Punctuation and FTS operators (`"`, `*`, `AND`) carry no
 * meaning here: they are separators or plain words.
 *
 * @example
 * parseSearchQuery('tail cut') // [{ term: 'tail', prefix: false }, { term: 'cut', prefix: true }]
 */
export function parseSearchQuery(query: string): SearchQueryTerm[] {
  const occurrences = termOccurrences(query);
  const terms: SearchQueryTerm[] = [];
  occurrences.forEach((occurrence, index) => {
    const previous = occurrences[index - 1];
    const isRunFinalCharacter =
      occurrence.kind === 'cjk' &&
      previous?.kind === 'cjk' &&
      previous.end === occurrence.end &&
      previous.start < occurrence.start;
    if (isRunFinalCharacter) return;
    const isLoneCjkCharacter = occurrence.kind === 'cjk' && Array.from(occurrence.term).length === 1;
    const isLastWord = occurrence.kind === 'word' && index === occurrences.length - 1;
    terms.push({ term: occurrence.term, prefix: isLoneCjkCharacter || isLastWord });
  });
  const byTerm = new Map<string, SearchQueryTerm>();
  for (const term of terms) {
    const seen = byTerm.get(term.term);
    // Asked for exactly once and as a prefix once: the exact match is the stricter demand.
    byTerm.set(
      term.term,
      seen === undefined ? term : { term: term.term, prefix: seen.prefix && term.prefix },
    );
  }
  return [...byTerm.values()];
}

/** Whether an indexed term satisfies a query term. */
export const termMatches = (queryTerm: SearchQueryTerm, term: string): boolean =>
  queryTerm.prefix ? term.startsWith(queryTerm.term) : term === queryTerm.term;
