import { capAtWord } from './cap-at-word.ts';
import type { FactSink } from './fact-collector.ts';

const MAX_DECISION_CHARACTERS = 160;
/** Longest line read for decisions; a longer "line" is data the assistant pasted. */
const MAX_LINE_CHARACTERS = 2_000;

/**
 * How an assistant says it has decided or will do something: "I'll", "I will", "we will",
 * "let's go with", "decided to", "I chose", "going with", "the plan is", "Decision:".
 * Typographic apostrophes count (Codex writes "I’ll").
 */
const DECISION_MARKER =
  /\b(?:I['’]ll|I will|I['’]m going to|we['’]ll|we will|let['’]s go with|decided to|I['’]ve decided|we['’]ve decided|I chose|we chose|I['’]ve chosen|going with|the plan is|decision:)/i;
const SENTENCE_END = /[.!?](?=\s|$)/g;

/**
 * Adds a `decision` fact for every sentence of assistant prose that carries a decision marker:
 * the sentence as written, without a list marker or final punctuation. Give it prose
 * only (see `splitFencedCode`): code is not a decision.
 *
 * @example findDecisions('Found it. I’ll switch the cache to a 1h TTL.', sink)
 * // 'I’ll switch the cache to a 1h TTL'
 */
export function findDecisions(prose: string, sink: FactSink): void {
  if (!DECISION_MARKER.test(prose.length > 200_000 ? prose.slice(0, 200_000) : prose)) return;
  let from = 0;
  while (from < prose.length) {
    const newline = prose.indexOf('\n', from);
    const lineEnd = newline === -1 ? prose.length : newline;
    const line = prose.slice(from, Math.min(lineEnd, from + MAX_LINE_CHARACTERS));
    if (DECISION_MARKER.test(line)) addDecisionSentences(line, sink);
    from = lineEnd + 1;
  }
}

function addDecisionSentences(line: string, sink: FactSink): void {
  let start = 0;
  SENTENCE_END.lastIndex = 0;
  for (;;) {
    const match = SENTENCE_END.exec(line);
    const end = match === null ? line.length : match.index;
    const sentence = line.slice(start, end);
    if (DECISION_MARKER.test(sentence)) {
      // Only a list marker and final punctuation go: the rest stays as written, so a
      // compaction that keeps the message keeps the decision.
      const cleaned = sentence
        .replace(/^\s*(?:[-*>]+|\d+[.)])\s+/, '')
        .trim()
        .replace(/[:;,]+$/, '');
      if (cleaned.length >= 8) sink.add('decision', capAtWord(cleaned, MAX_DECISION_CHARACTERS));
    }
    if (match === null) return;
    start = end + 1;
  }
}
