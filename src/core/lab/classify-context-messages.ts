/**
 * What each message of a transcript is, for the category view (Claude Code's `/context`): the
 * system prompt, what the user wrote, what the assistant wrote, a tool's result (by tool), or a
 * compaction summary; and how much of it is reasoning. Independent of the token basis, so a
 * planner classifies a transcript once and re-counts it per plan.
 */
import { COMPRESSED_SUMMARY_METADATA_KEY } from '../compression/markers.ts';
import { readUserMessage } from '../fidelity/read-user-message.ts';
import { isHermesSummaryMessage } from '../import/is-hermes-summary-message.ts';
import { messageCountingText } from '../tokens/count-message-tokens.ts';
import { matchToolResults } from '../transcript/match-tool-results.ts';
import type { Message } from '../transcript/message.ts';
import type { ForeignCompactionPoint } from '../transcript/transcript.ts';

export type ContextMessageKind = 'system' | 'user' | 'assistant' | 'tool-result' | 'summary' | 'other';

export interface ContextMessageClass {
  readonly kind: ContextMessageKind;
  /** A tool result's tool, from the result or its call; '' when neither names it. */
  readonly tool: string;
  /** Characters of reasoning (`reasoning`, `reasoning_content`, `reasoning_details`). */
  readonly reasoningChars: number;
  /** Characters of everything else a tokenizer reads (`messageCountingText`: text, calls, names). */
  readonly otherChars: number;
}

/** Reasoning fields as the importers and providers leave them on a message. */
const REASONING_KEYS = ['reasoning', 'reasoning_content', 'reasoning_details'] as const;

/** Compaction points whose message at `messageIndex` is the summary itself. */
function summaryIndices(points: readonly ForeignCompactionPoint[]): Set<number> {
  const indices = new Set<number>();
  for (const point of points) {
    const carriesSummary =
      point.kind === 'claude-compact-summary' ||
      point.kind === 'hermes-summary' ||
      // A local Codex compaction inserts its summary as a user message; a remote one replaces history.
      (point.kind === 'codex-compacted' && point.summary !== undefined && point.replacedItems === undefined);
    if (carriesSummary) indices.add(point.messageIndex);
  }
  return indices;
}

function reasoningChars(message: Message): number {
  let chars = 0;
  for (const key of REASONING_KEYS) {
    const value = message[key];
    if (typeof value === 'string') chars += value.length;
    else if (value !== undefined && value !== null) chars += JSON.stringify(value)?.length ?? 0;
  }
  return chars;
}

function isSummary(message: Message): boolean {
  if (message[COMPRESSED_SUMMARY_METADATA_KEY] === true) return true;
  if (isHermesSummaryMessage(message)) return true;
  return message.role === 'user' && readUserMessage(message).summary;
}

/**
 * One class per message.
 *
 * @example classifyContextMessages([{ role: 'user', content: 'fix it' }])[0]!.kind // 'user'
 */
export function classifyContextMessages(
  messages: readonly Message[],
  compactionPoints: readonly ForeignCompactionPoint[] = [],
): ContextMessageClass[] {
  const summaries = summaryIndices(compactionPoints);
  // A result names its tool, or its call does.
  const callNames = new Map<Message, string>();
  matchToolResults(messages).forEach((results, messageIndex) => {
    const calls = messages[messageIndex]!.tool_calls;
    results.forEach((result, callIndex) => {
      const name = calls?.[callIndex]?.function?.name;
      if (result && typeof name === 'string' && !callNames.has(result)) callNames.set(result, name);
    });
  });
  return messages.map((message, index) => {
    const counted = {
      reasoningChars: reasoningChars(message),
      otherChars: messageCountingText(message).length,
    };
    const role = message.role;
    if (role === 'tool' || role === 'function') {
      const own = typeof message.name === 'string' ? message.name : message.tool_name;
      const tool = typeof own === 'string' && own !== '' ? own : (callNames.get(message) ?? '');
      return { kind: 'tool-result', tool, ...counted };
    }
    if (summaries.has(index) || ((role === 'user' || role === 'assistant') && isSummary(message)))
      return { kind: 'summary', tool: '', ...counted };
    const kind: ContextMessageKind =
      role === 'system' || role === 'developer'
        ? 'system'
        : role === 'user'
          ? 'user'
          : role === 'assistant'
            ? 'assistant'
            : 'other';
    return { kind, tool: '', ...counted };
  });
}
