import { capAtWord } from './cap-at-word.ts';
import { FACT_KINDS, type Fact, type FactKind } from './fact.ts';
import { normalizeMatchText } from './normalize-match-text.ts';

/** Longest display kept; the normalised text is derived from it, so it is also the longest text. */
export const MAX_FACT_DISPLAY_CHARACTERS = 160;

/**
 * At most this many new facts of a kind from one message (repeats of known facts are always
 * counted). A 500-line log of distinct errors or a listing of 200 files would otherwise dominate
 * the score of a whole compaction; the first ones stand for the rest.
 */
export const MAX_FACTS_PER_MESSAGE: Readonly<Record<FactKind, number>> = {
  path: 24,
  error: 12,
  identifier: 24,
  command: 8,
  url: 12,
  ask: 1,
  decision: 6,
};

/** Where extractors put what they find, for the message being read. */
export interface FactSink {
  /**
   * Records a fact. `display` is trimmed, its whitespace collapsed and capped; `text` defaults
   * to its normalised form and, when given, must be contained in that form.
   */
  add(kind: FactKind, display: string, text?: string): void;
}

export interface FactCollector extends FactSink {
  /** Facts added from now on come from this message. */
  startMessage(messageIndex: number): void;
  /** Every fact so far, in order of first appearance. */
  facts(): Fact[];
}

/** Deduplicates by `(kind, normalised text)`, keeping the first message and counting repeats. */
export function createFactCollector(): FactCollector {
  const byKey = new Map<string, Fact>();
  // The same display said again is the same fact: found without normalising it again.
  const byDisplay = new Map<string, Fact>();
  const ordered: Fact[] = [];
  let messageIndex = -1;
  const perKind = emptyCounts();
  return {
    startMessage(index) {
      messageIndex = index;
      for (const kind of FACT_KINDS) perKind[kind] = 0;
    },
    add(kind, display, text) {
      const displayKey = `${kind}\u0000${text ?? ''}\u0000${display}`;
      const seen = byDisplay.get(displayKey);
      if (seen) {
        seen.count += 1;
        return;
      }
      const shown = capAtWord(display.replace(/\s+/g, ' ').trim(), MAX_FACT_DISPLAY_CHARACTERS);
      const shownText = normalizeMatchText(shown).trim();
      // A text the display does not contain could never be added back from the display.
      const normalised = text !== undefined && shownText.includes(text) ? text : shownText;
      if (normalised.length < 2) return;
      const key = `${kind}\u0000${normalised}`;
      const known = byKey.get(key);
      if (known) {
        known.count += 1;
        byDisplay.set(displayKey, known);
        return;
      }
      if (perKind[kind] >= MAX_FACTS_PER_MESSAGE[kind]) return;
      perKind[kind] += 1;
      const fact: Fact = { kind, text: normalised, display: shown, messageIndex, count: 1 };
      byKey.set(key, fact);
      byDisplay.set(displayKey, fact);
      ordered.push(fact);
    },
    facts: () => ordered,
  };
}

function emptyCounts(): Record<FactKind, number> {
  const counts = {} as Record<FactKind, number>;
  for (const kind of FACT_KINDS) counts[kind] = 0;
  return counts;
}
