import type { BoundarySwitches } from '../presets/preset.ts';
import type { Preset } from '../presets/preset.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import { messageBudgetTokens } from '../tokens/message-budget-tokens.ts';
import { pythonHasNonWhitespace } from '../tokens/python-truthy.ts';
import type { Message } from '../transcript/message.ts';
import { alignBoundaryBackward, alignBoundaryForward } from './align-boundaries.ts';
import { isContextSummaryContent } from './markers.ts';

export interface TailCutOptions {
  /** Token budget of the protected tail (`tail_token_budget`). */
  tailTokenBudget: number;
  protectLastN: number;
}

/** Why the tail starts where it does: each step that decided the cut or moved it, in order. */
export type TailCutStep =
  /**
   * The backward walk accepted messages until the next one would pass the 1.5× soft ceiling, or
   * (`reachedHead`) took every message after the head. Tokens are counted after pruning.
   */
  | {
      kind: 'budget-walk';
      acceptedMessages: number;
      acceptedTokens: number;
      budget: number;
      softCeiling: number;
      cut: number;
      reachedHead: boolean;
    }
  /** Everything fitted under the soft ceiling, so the walk was redone at the raw budget (#40803). */
  | { kind: 'rewalk'; acceptedMessages: number; acceptedTokens: number; budget: number; cut: number }
  /**
   * The minimum tail moved the cut: back (`to < from`) to keep at least `min_tail` messages, or
   * forward (`to > from`) when the tail had taken everything after the head, leaving nothing to
   * summarise — the tail then collapses to `min_tail` messages (at least one after the head).
   */
  | { kind: 'floor'; minTail: number; from: number; to: number }
  /** The cut moved back so a tool call and its results stay together. */
  | { kind: 'align-backward'; from: number; to: number }
  /** The cut moved back to keep the latest user message in the tail. */
  | { kind: 'last-user'; userIndex: number; from: number; to: number }
  /** The latest user message sat at the head end: it is summarised with its reply instead (#22523); always recorded. */
  | { kind: 'causal-coupling'; userIndex: number; pairEnd: number; from: number; to: number }
  /** The cut moved back to keep the latest visible assistant reply in the tail (#29824). */
  | { kind: 'last-assistant'; assistantIndex: number; from: number; to: number }
  /** The tail must start after the head end. */
  | { kind: 'progress-floor'; from: number; to: number }
  /** The final cut slid forward past tool results so no group is split. */
  | { kind: 'align-forward'; from: number; to: number };

export interface TailCut {
  /** First message of the protected tail; `messages[headEnd:tailStart]` gets summarised. */
  tailStart: number;
  /** The minimum number of tail messages the walk had to keep. */
  minTail: number;
  steps: TailCutStep[];
}

/** Soft ceiling of the tail walk: an oversized message may still be taken up to 1.5× the budget. */
export const SOFT_CEILING_FACTOR = 1.5;

function minimumTail(
  count: number,
  headEnd: number,
  protectLastN: number,
  switches: BoundarySwitches,
): number {
  if (switches.minTail === 'three') return count - headEnd > 1 ? Math.min(3, count - headEnd - 1) : 0;
  const available = Math.max(0, count - headEnd - 1);
  const floor = Math.max(3, Math.min(protectLastN, switches.maxTailMessageFloor));
  // Leave at least 2 compressible messages in a short conversation.
  const cap = Math.max(3, available - 2);
  return available > 1 ? Math.min(floor, cap, available) : 0;
}

interface Walk {
  cut: number;
  accumulated: number;
  /** Set when the walk stopped on a message that did not fit. */
  stoppedAt: number | null;
}

/**
 * Walk back from the end accumulating weights; stop at the first message that would pass
 * `limit` once at least `minTail` messages (counting that one) are in the tail.
 */
function walkBack(
  weight: (index: number) => number,
  count: number,
  headEnd: number,
  limit: number,
  minTail: number,
): Walk {
  let accumulated = 0;
  let cut = count;
  for (let index = count - 1; index >= headEnd; index--) {
    const tokens = weight(index);
    if (accumulated + tokens > limit && count - index >= minTail)
      return { cut, accumulated, stoppedAt: index };
    accumulated += tokens;
    cut = index;
  }
  return { cut, accumulated, stoppedAt: null };
}

function lastUserIndex(
  messages: readonly Message[],
  headEnd: number,
  skipSummaries: boolean,
  preset: Preset,
): number {
  for (let index = messages.length - 1; index >= headEnd; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    if (skipSummaries && isContextSummaryContent(message.content, preset)) continue;
    return index;
  }
  return -1;
}

/** The user message, its immediate assistant reply and that reply's tool results. */
function turnPairEnd(messages: readonly Message[], userIndex: number): number {
  let end = userIndex + 1;
  if (messages[end]?.role !== 'assistant') return end;
  end++;
  while (messages[end]?.role === 'tool') end++;
  return end;
}

function hasVisibleText(message: Message): boolean {
  const content = message.content;
  if (typeof content === 'string') return pythonHasNonWhitespace(content);
  if (!Array.isArray(content)) return false;
  return content.some((part) => {
    if (!isPlainObject(part)) return false;
    const text = typeof part.text === 'string' ? part.text : part.content;
    return typeof text === 'string' && pythonHasNonWhitespace(text);
  });
}

/** Latest non-summary assistant with visible text, else the latest non-summary assistant, else -1. */
function lastAssistantIndex(messages: readonly Message[], headEnd: number, preset: Preset): number {
  let anyAssistant = -1;
  for (let index = messages.length - 1; index >= headEnd; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant' || isContextSummaryContent(message.content, preset)) continue;
    if (hasVisibleText(message)) return index;
    if (anyAssistant < 0) anyAssistant = index;
  }
  return anyAssistant;
}

/**
 * Hermes `_find_tail_cut_by_tokens(messages, head_end)`: where the protected tail starts.
 * A backward walk over the tail weight up to 1.5× the budget, a minimum tail, then anchors:
 * tool groups stay whole, the latest user message stays in the tail (2026-07: or is summarised
 * with its reply when it sits at the head end), and 2026-07 also keeps the latest visible reply.
 */
export function findTailCut(
  messages: readonly Message[],
  headEnd: number,
  options: TailCutOptions,
  preset: Preset,
): TailCut {
  const switches = preset.boundaries;
  const count = messages.length;
  const steps: TailCutStep[] = [];
  const weights = new Map<number, number>();
  const weight = (index: number): number => {
    let tokens = weights.get(index);
    if (tokens === undefined) {
      tokens = messageBudgetTokens(messages[index]!, preset);
      weights.set(index, tokens);
    }
    return tokens;
  };
  const budget = options.tailTokenBudget;
  const minTail = minimumTail(count, headEnd, options.protectLastN, switches);
  const softCeiling = Math.trunc(budget * SOFT_CEILING_FACTOR);

  const walk = walkBack(weight, count, headEnd, softCeiling, minTail);
  let cut = walk.cut;
  steps.push({
    kind: 'budget-walk',
    acceptedMessages: count - cut,
    acceptedTokens: walk.accumulated,
    budget,
    softCeiling,
    cut,
    reachedHead: walk.stoppedAt === null,
  });
  if (
    switches.rewalksAtRawBudget &&
    cut <= headEnd &&
    walk.accumulated > 0 &&
    walk.accumulated <= softCeiling
  ) {
    const rewalk = walkBack(weight, count, headEnd, budget, minTail);
    // Hermes keeps the message that overflowed the raw budget in the tail.
    cut = rewalk.stoppedAt ?? rewalk.cut;
    const accepted =
      rewalk.stoppedAt === null ? rewalk.accumulated : rewalk.accumulated + weight(rewalk.stoppedAt);
    steps.push({ kind: 'rewalk', acceptedMessages: count - cut, acceptedTokens: accepted, budget, cut });
  }

  const move = (next: number, step: (from: number, to: number) => TailCutStep): void => {
    if (next !== cut) steps.push(step(cut, next));
    cut = next;
  };
  const fallback = count - minTail;
  let floored = Math.min(cut, fallback);
  if (floored <= headEnd) floored = Math.max(fallback, headEnd + 1);
  move(floored, (from, to) => ({ kind: 'floor', minTail, from, to }));
  move(alignBoundaryBackward(messages, cut), (from, to) => ({ kind: 'align-backward', from, to }));

  const userIndex = lastUserIndex(messages, headEnd, switches.lastUserSkipsSummaries, preset);
  if (userIndex >= 0 && userIndex < cut) {
    if (switches.causalCoupling && userIndex === headEnd) {
      // Recorded even when the cut stays put: it decides that the ask is summarised with its reply.
      const pairEnd = turnPairEnd(messages, userIndex);
      const coupled = Math.max(pairEnd, headEnd + 1);
      steps.push({ kind: 'causal-coupling', userIndex, pairEnd, from: cut, to: coupled });
      cut = coupled;
    } else {
      move(userIndex, (from, to) => ({ kind: 'last-user', userIndex, from, to }));
    }
  }

  if (switches.lastAssistantAnchor) {
    const assistantIndex = lastAssistantIndex(messages, headEnd, preset);
    if (assistantIndex >= 0 && assistantIndex < cut) {
      const anchored = Math.max(alignBoundaryBackward(messages, assistantIndex), headEnd + 1);
      move(anchored, (from, to) => ({ kind: 'last-assistant', assistantIndex, from, to }));
    }
  }

  move(Math.max(cut, headEnd + 1), (from, to) => ({ kind: 'progress-floor', from, to }));
  if (switches.finalForwardAlign) {
    move(alignBoundaryForward(messages, cut), (from, to) => ({ kind: 'align-forward', from, to }));
  }
  return { tailStart: cut, minTail, steps };
}
