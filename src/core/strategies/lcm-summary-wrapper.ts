/**
 * How the `lcm` strategy presents a summary to the model, and how it recognises one it wrote
 * earlier. LCM (lossless-claw) wraps each summary node in XML carrying its id, kind, depth and
 * time range, with an "Expand for details about: …" footer; this is the lab's own format in
 * that spirit. A later compaction reads the wrapper back to treat the message as an existing
 * node of the summary DAG instead of raw history.
 */
import { contentTextForContains } from '../compression/content-text.ts';
import type { Message } from '../transcript/message.ts';

export type LcmSummaryKind = 'leaf' | 'condensed';

export interface LcmSummaryWrapper {
  readonly id: string;
  readonly kind: LcmSummaryKind;
  readonly depth: number;
  /** Input message numbers it stands for, first and last (inclusive). */
  readonly firstMessage: number;
  readonly lastMessage: number;
  /** Summaries a condensed node stands for; 0 for a leaf. */
  readonly descendants: number;
  /** ISO times of the first and last message, when the messages carry them. */
  readonly earliestAt: string | null;
  readonly latestAt: string | null;
  readonly body: string;
  /** What the summary leaves out, for the footer. */
  readonly expandFor: string;
}

const OPENING_RE = /^<summary id="([^"]*)" kind="(leaf|condensed)" depth="(\d+)"[^>\n]*>\n/;
const EXPAND_PREFIX = '\n\nExpand for details about: ';
const CLOSING = '\n</summary>';

const attribute = (name: string, value: string | number): string => ` ${name}="${String(value)}"`;

export function formatLcmSummary(summary: LcmSummaryWrapper): string {
  const attributes =
    attribute('id', summary.id) +
    attribute('kind', summary.kind) +
    attribute('depth', summary.depth) +
    attribute('messages', `#${summary.firstMessage}–#${summary.lastMessage}`) +
    (summary.kind === 'condensed' ? attribute('descendants', summary.descendants) : '') +
    (summary.earliestAt ? attribute('earliest_at', summary.earliestAt) : '') +
    (summary.latestAt ? attribute('latest_at', summary.latestAt) : '');
  return `<summary${attributes}>\n${summary.body}${EXPAND_PREFIX}${summary.expandFor}${CLOSING}`;
}

/** A summary this strategy wrote: its id, kind, depth and body; null for any other message. */
export interface ParsedLcmSummary {
  readonly id: string;
  readonly kind: LcmSummaryKind;
  readonly depth: number;
  readonly body: string;
}

export function parseLcmSummary(message: Message): ParsedLcmSummary | null {
  if (message.role !== 'user') return null;
  const text = contentTextForContains(message.content);
  if (!text.startsWith('<summary id="')) return null;
  const opening = OPENING_RE.exec(text);
  if (!opening || !text.endsWith(CLOSING)) return null;
  const inner = text.slice(opening[0].length, text.length - CLOSING.length);
  const footer = inner.lastIndexOf(EXPAND_PREFIX);
  return {
    id: opening[1]!,
    kind: opening[2] as LcmSummaryKind,
    depth: Number(opening[3]),
    body: footer >= 0 ? inner.slice(0, footer) : inner,
  };
}

/** The depth of a summary this strategy wrote, or −1; a cheap test before the full parse. */
export function lcmSummaryDepth(message: Message): number {
  if (message.role !== 'user') return -1;
  const content = message.content;
  if (typeof content === 'string' && !content.startsWith('<summary id="')) return -1;
  return parseLcmSummary(message)?.depth ?? -1;
}
