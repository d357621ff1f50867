/**
 * What a compaction can forget, in the kinds ROUND2 §3 names. The order is the order reports
 * list them in.
 */
export const FACT_KINDS = ['path', 'error', 'identifier', 'command', 'url', 'ask', 'decision'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

/**
 * One thing the removed or summarised part of a transcript said, deduplicated by
 * `(kind, text)`.
 */
export interface Fact {
  kind: FactKind;
  /**
   * The normalised form survival looks for (see `normalizeMatchText`): lower case, whitespace
   * collapsed, backslashes as slashes, paths without `./` or a line number.
   */
  text: string;
  /**
   * A short original form for showing the fact. Written so that adding it to a summary makes
   * the fact survive: its normalised form always contains `text`.
   */
  display: string;
  /** Index, into the messages given to `extractFacts`, of the first message that said it. */
  messageIndex: number;
  /** How many times the extracted messages said it. */
  count: number;
}

export const isFactKind = (value: unknown): value is FactKind =>
  typeof value === 'string' && (FACT_KINDS as readonly string[]).includes(value);
