/**
 * Where the `lcm` strategy cuts, without a summariser: the fresh tail, the leaf chunks of the
 * raw history outside it (whole tool groups, up to `leafChunkTokens` each), and the runs of
 * depth-0 summaries the condensed pass turns into depth-1 summaries. Summaries written by an
 * earlier compaction are nodes of their own. Linear in the transcript; `plan` and `compact`
 * both read this one layout, so they always agree.
 */
import { FATE, type MessageTokens, type SummarySpan } from './strategy.ts';
import { isUserAsk, leadingSystemCount } from './strategy-kit.ts';
import { lcmSummaryDepth } from './lcm-summary-wrapper.ts';
import { hasToolCalls, type Message } from '../transcript/message.ts';

/** condensedTargetTokens: the size asked of a depth-1 summary. */
export const CONDENSED_TARGET_TOKENS = 2000;

/** The strategy's options as the layout needs them (`lcm.ts` reads them from the config). */
export interface LcmSettings {
  readonly thresholdShare: number;
  readonly tailCount: number;
  readonly tailTokens: number;
  readonly chunkTokens: number;
  readonly leafTarget: number;
  readonly condense: boolean;
  readonly fanout: number;
}

/** Per transcript: what LCM reads of each message, once however often it plans and compacts. */
export interface LcmPrepared {
  /** The depth of each summary this strategy wrote earlier (−1 for raw messages). */
  readonly depth: Int8Array;
  /**
   * 1 where the message is a request the user made (`isUserAsk`), which a summary's footer counts
   * and a condensed summary quotes. Read here rather than in every compaction's walk of its spans:
   * that walk ran the test's chain of text checks, and the engine's optimising compile of it took
   * ~9 ms of CPU in the middle of LCM's first compaction, on a core the compaction shares.
   */
  readonly asks: Uint8Array;
  /** The last layout made with this value, and what it was made from. */
  readonly memo: { last: LaidOut | null };
}

/** A layout with its inputs: the messages, each one's token count, the settings. */
interface LaidOut {
  readonly messages: readonly Message[];
  readonly tokens: Float64Array;
  readonly settings: LcmSettings;
  readonly layout: LcmLayout;
}

export function prepareLcm(messages: readonly Message[]): LcmPrepared {
  const depth = new Int8Array(messages.length);
  const asks = new Uint8Array(messages.length);
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    depth[index] = Math.min(127, lcmSummaryDepth(message));
    if (message.role === 'user' && isUserAsk(message)) asks[index] = 1;
  }
  return { depth, asks, memo: { last: null } };
}

/** One node of the prefix outside the fresh tail, oldest first. */
export type PrefixNode =
  /** A summary from an earlier compaction: one input message. */
  | { readonly type: 'existing'; readonly index: number; readonly depth: number }
  /** A new leaf: a chunk of raw messages `[start, end)`. */
  | { readonly type: 'leaf'; readonly start: number; readonly end: number; readonly tokens: number };

/** A summary this compaction inserts: one leaf, or a condensed run of depth-0 nodes. */
export interface NewSummary {
  readonly kind: 'leaf' | 'condensed';
  /** Positions in `nodes`: `[first, end)`. */
  readonly first: number;
  readonly end: number;
  readonly span: SummarySpan;
  /** The size asked of it. */
  readonly budget: number;
}

export interface LcmLayout {
  readonly headEnd: number;
  readonly tailStart: number;
  readonly tailTokens: number;
  /** Whether the newest message (with its tool group) alone went over the token cap. */
  readonly tailOverCap: boolean;
  readonly nodes: readonly PrefixNode[];
  readonly summaries: readonly NewSummary[];
  readonly fates: Uint8Array;
  readonly leafCount: number;
  readonly rawPrefixTokens: number;
  readonly rawPrefixMessages: number;
  readonly existingKept: number;
}

const isToolResult = (message: Message): boolean => message.role === 'tool';

/**
 * The fresh tail: the newest raw messages up to the message count or the token cap, whichever
 * is reached first (the newest message always counts), never starting inside a tool group.
 */
function freshTailStart(
  messages: readonly Message[],
  tokens: Pick<MessageTokens, 'of'>,
  headEnd: number,
  settings: LcmSettings,
  prepared: LcmPrepared,
): { start: number; tokens: number; overCap: boolean } {
  const count = messages.length;
  let start = count;
  let used = 0;
  while (start > headEnd && count - start < settings.tailCount && prepared.depth[start - 1]! < 0) {
    const size = tokens.of(start - 1);
    if (start < count && used + size > settings.tailTokens) break;
    used += size;
    start--;
  }
  if (start < count && isToolResult(messages[start]!)) {
    // Inside a tool group: give the group up (the tail stays under its limits), unless the
    // group is all the tail holds; then the newest message keeps its call beside it.
    let after = start;
    while (after < count && isToolResult(messages[after]!)) after++;
    if (after < count) {
      for (let index = start; index < after; index++) used -= tokens.of(index);
      start = after;
    } else {
      while (start > headEnd && isToolResult(messages[start - 1]!) && prepared.depth[start - 1]! < 0) {
        start--;
        used += tokens.of(start);
      }
      if (start > headEnd && hasToolCalls(messages[start - 1]!)) {
        start--;
        used += tokens.of(start);
      }
    }
  }
  return { start, tokens: used, overCap: used > settings.tailTokens };
}

/** End of the unit that starts at `index`: an assistant call with all its results, else one message. */
function unitEnd(messages: readonly Message[], index: number, limit: number): number {
  let end = index + 1;
  if (hasToolCalls(messages[index]!)) while (end < limit && isToolResult(messages[end]!)) end++;
  return end;
}

/**
 * The layout of `messages` under `settings`. A compaction after its plan gets the layout the
 * plan showed, the same object, without laying the transcript out again: the last layout made
 * with `prepared` is kept with its inputs and returned when the messages (by identity), their
 * token counts and the settings are all the same. Laying out 10,000 messages in a fresh process
 * took 1–2 ms, and its optimisation ~20 ms of V8's compiler CPU, abandoned unfinished every time.
 */
export function layoutLcm(
  messages: readonly Message[],
  tokens: MessageTokens,
  settings: LcmSettings,
  prepared: LcmPrepared,
): LcmLayout {
  const last = prepared.memo.last;
  if (last !== null && sameInputs(last, messages, tokens, settings)) return last.layout;
  const counts = new Float64Array(messages.length);
  for (let index = 0; index < counts.length; index++) counts[index] = tokens.of(index);
  const layout = computeLayout(messages, { of: (index) => counts[index]! }, settings, prepared);
  prepared.memo.last = { messages, tokens: counts, settings, layout };
  return layout;
}

function sameInputs(
  last: LaidOut,
  messages: readonly Message[],
  tokens: MessageTokens,
  settings: LcmSettings,
): boolean {
  if (last.messages.length !== messages.length) return false;
  // Every setting, however many there come to be: each is a number or a flag.
  const keys = Object.keys(settings) as (keyof LcmSettings)[];
  for (let k = 0; k < keys.length; k++) if (settings[keys[k]!] !== last.settings[keys[k]!]) return false;
  for (let index = 0; index < messages.length; index++)
    if (messages[index] !== last.messages[index] || tokens.of(index) !== last.tokens[index]) return false;
  return true;
}

function computeLayout(
  messages: readonly Message[],
  tokens: Pick<MessageTokens, 'of'>,
  settings: LcmSettings,
  prepared: LcmPrepared,
): LcmLayout {
  const count = messages.length;
  const headEnd = leadingSystemCount(messages);
  const tail = freshTailStart(messages, tokens, headEnd, settings, prepared);
  const nodes: PrefixNode[] = [];
  let rawPrefixTokens = 0;
  let rawPrefixMessages = 0;
  // Leaf pass: raw runs between earlier summaries, cut greedily into chunks of whole units.
  let index = headEnd;
  let chunkStart = -1;
  let chunkTokens = 0;
  const closeChunk = (end: number): void => {
    if (chunkStart >= 0) nodes.push({ type: 'leaf', start: chunkStart, end, tokens: chunkTokens });
    chunkStart = -1;
    chunkTokens = 0;
  };
  while (index < tail.start) {
    const depth = prepared.depth[index]!;
    if (depth >= 0) {
      closeChunk(index);
      nodes.push({ type: 'existing', index, depth });
      index++;
      continue;
    }
    const end = unitEnd(messages, index, tail.start);
    let unitTokens = 0;
    for (let member = index; member < end; member++) unitTokens += tokens.of(member);
    if (chunkStart >= 0 && chunkTokens + unitTokens > settings.chunkTokens) closeChunk(index);
    if (chunkStart < 0) chunkStart = index;
    chunkTokens += unitTokens;
    rawPrefixTokens += unitTokens;
    rawPrefixMessages += end - index;
    index = end;
  }
  closeChunk(tail.start);

  const nodeSpan = (node: PrefixNode): [number, number] =>
    node.type === 'existing' ? [node.index, node.index + 1] : [node.start, node.end];
  const nodeSize = (node: PrefixNode): number =>
    node.type === 'existing' ? tokens.of(node.index) : leafBudget(node.tokens, settings);
  // Condensed pass: every run of `fanout` depth-0 nodes in a row, oldest first, becomes one.
  const grouped = new Int32Array(nodes.length).fill(-1);
  const summaries: NewSummary[] = [];
  const condensedAt = new Map<number, NewSummary>();
  if (settings.condense) {
    let runStart = 0;
    for (let position = 0; position <= nodes.length; position++) {
      const node = nodes[position];
      const depthZero = node !== undefined && (node.type === 'leaf' || node.depth === 0);
      if (depthZero) continue;
      for (let first = runStart; first + settings.fanout <= position; first += settings.fanout) {
        const end = first + settings.fanout;
        let size = 0;
        for (let member = first; member < end; member++) {
          grouped[member] = first;
          size += nodeSize(nodes[member]!);
        }
        condensedAt.set(first, {
          kind: 'condensed',
          first,
          end,
          span: { start: nodeSpan(nodes[first]!)[0], end: nodeSpan(nodes[end - 1]!)[1], kind: 'condensed' },
          budget: Math.min(CONDENSED_TARGET_TOKENS, size),
        });
      }
      runStart = position + 1;
    }
  }
  const fates = new Uint8Array(count);
  let leafCount = 0;
  let existingKept = 0;
  for (let position = 0; position < nodes.length; position++) {
    const node = nodes[position]!;
    const [start, end] = nodeSpan(node);
    if (node.type === 'leaf') leafCount++;
    if (grouped[position]! >= 0) {
      fates.fill(FATE.summarized, start, end);
      if (grouped[position] === position) summaries.push(condensedAt.get(position)!);
    } else if (node.type === 'leaf') {
      fates.fill(FATE.summarized, start, end);
      summaries.push({
        kind: 'leaf',
        first: position,
        end: position + 1,
        span: { start, end, kind: 'leaf' },
        budget: leafBudget(node.tokens, settings),
      });
    } else existingKept++;
  }
  return {
    headEnd,
    tailStart: tail.start,
    tailTokens: tail.tokens,
    tailOverCap: tail.overCap,
    nodes,
    summaries,
    fates,
    leafCount,
    rawPrefixTokens,
    rawPrefixMessages,
    existingKept,
  };
}

/** A leaf is never asked to be larger than the chunk it stands for. */
export const leafBudget = (chunkTokens: number, settings: LcmSettings): number =>
  Math.max(1, Math.min(settings.leafTarget, Math.round(chunkTokens)));
