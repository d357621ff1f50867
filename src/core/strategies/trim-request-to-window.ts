/**
 * What a tool does when its own compaction request is over the model's window: the provider
 * refuses it, and the tool drops the oldest messages and asks again. Codex removes one item at a
 * time ("Trimmed N older thread item(s) before compacting so the prompt fits the model context
 * window", codex-rs compact.rs); Claude Code drops whole API rounds, enough to cover the gap the
 * error names (`truncateHeadForPTLRetry`, up to three retries). The lab finds the same cut up
 * front from the transcript's token counts. The dropped messages never reach the summariser, so
 * the summary does not stand for them.
 */
import { buildTemplatePrompt, type SummaryTemplate } from '../compression/summary-template.ts';
import { formatCount } from '../shared/format-count.ts';
import type { Message } from '../transcript/message.ts';
import type { MessageTokens } from './strategy.ts';

export interface RequestFit {
  /** The whole request before any cut: the messages and everything sent with them. */
  readonly requestTokens: number;
  /** The model's window: a request over it is refused. */
  readonly windowTokens: number;
  /** Where a cut may land: after a cut, the first message sent passes this. */
  readonly canStartAt: (message: Message) => boolean;
}

/**
 * The first message the request sends: `start` when it fits, else the first after the fewest
 * oldest messages whose removal makes it fit, moved on to where a cut may land. At least the last
 * message is always sent (the provider then refuses, as it would refuse the tool).
 */
export function firstMessageSent(
  messages: readonly Message[],
  start: number,
  tokens: MessageTokens,
  fit: RequestFit,
): number {
  const last = messages.length - 1;
  let request = fit.requestTokens;
  let first = start;
  while (
    first < last &&
    (request > fit.windowTokens || (first > start && !fit.canStartAt(messages[first]!)))
  ) {
    request -= tokens.of(first);
    first++;
  }
  return first;
}

/** The prompt's own size besides the turns, at about four characters per token. */
export function templatePromptTokens(
  instructions: string,
  template: SummaryTemplate,
  budgetTokens: number,
): number {
  const prompt = buildTemplatePrompt({ instructions, serializedTurns: '', template, budgetTokens });
  return Math.ceil(prompt.length / 4);
}

/** "…so Codex trims the oldest 3 messages (3,000 tokens) before it compacts…", for notes and plans. */
export function trimmedText(
  tool: string,
  action: string,
  trimmed: number,
  trimmedTokens: number,
  windowTokens: number,
): string {
  return (
    `The whole history does not fit the ${formatCount(windowTokens)}-token window with ${tool}'s compaction prompt, ` +
    `so ${tool} ${action} the oldest ${formatCount(trimmed)} ${trimmed === 1 ? 'message' : 'messages'} ` +
    `(${formatCount(trimmedTokens)} tokens) before it compacts: they are dropped without being summarised.`
  );
}
