import type { Preset } from '../presets/preset.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import { pruneWalkTokens } from '../tokens/message-budget-tokens.ts';
import { pythonLength, pythonSlice } from '../tokens/python-length.ts';
import { pythonReprLength, pythonStr } from '../tokens/python-repr.ts';
import { pythonTruthy } from '../tokens/python-truthy.ts';
import type { Message, ToolCall } from '../transcript/message.ts';
import { hasToolCallsField } from './align-boundaries.ts';
import {
  DUPLICATE_TOOL_OUTPUT_PLACEHOLDER,
  PRUNED_TOOL_PLACEHOLDER,
  SCREENSHOT_REMOVED_PLACEHOLDER,
  SCREENSHOT_REMOVED_PREFIX,
} from './markers.ts';
import { summarizeToolResult } from './summarize-tool-result.ts';
import type { HermesRaised } from '../shared/hermes-raised.ts';
import { truncateToolCallArgs } from './truncate-tool-call-args.ts';

export interface PruneOptions {
  /** Messages always protected at the end (Hermes passes `protect_last_n`). */
  protectTailCount: number;
  /** Token budget of the protected tail (Hermes passes `tail_token_budget`); null = count only. */
  protectTailTokens: number | null;
}

/** One replacement made by pruning, for the UI. */
export interface PrunedToolOutput {
  index: number;
  kind: 'duplicate' | 'one-liner' | 'image' | 'arguments';
  toolName: string;
  /** Size of what was replaced: code points of the text, or of the repr for part lists. */
  originalChars: number;
  /** What it became (for part lists: the placeholder text). */
  replacement: string;
}

/** Where 2026-04's one-liner raised on an old tool result, and on which message. */
export type PruneRaise = HermesRaised & { readonly index: number };

export interface PruneResult {
  /** Same length and roles as the input; unchanged messages are the input objects themselves. */
  messages: Message[];
  /**
   * Where 2026-04's one-liner raised on an old tool result (the first before the prune
   * boundary): Hermes' `_prune_old_tool_results`, and with it `compress()`, raised there, so a
   * compaction must refuse. That result is left as it was; `messages` shows the other
   * replacements, for display only.
   */
  raised: PruneRaise | null;
  /** Hermes' count: duplicates + one-liners + stripped images (argument shrinking is not counted). */
  prunedCount: number;
  /** Messages before this index are outside the protected tail. */
  pruneBoundary: number;
  pruned: PrunedToolOutput[];
}

/** Tool outputs shorter than this are never deduplicated. */
export const DEDUPE_MIN_CHARS = 200;
/** Tool outputs longer than this become one-liners outside the protected tail. */
export const ONE_LINER_MIN_CHARS = 200;
/** Tool-call arguments longer than this get their string leaves shrunk. */
export const ARGUMENTS_SHRINK_MIN_CHARS = 500;
/** The `_multimodal` text summary is cut to this many characters. */
export const SCREENSHOT_SUMMARY_MAX_CHARS = 200;

const IMAGE_PART_TYPES: ReadonlySet<unknown> = new Set(['image', 'image_url', 'input_image']);
const isImagePart = (part: unknown): boolean => isPlainObject(part) && IMAGE_PART_TYPES.has(part.type);

interface CallInfo {
  name: string;
  args: string;
}
const UNKNOWN_CALL: CallInfo = { name: 'unknown', args: '' };

/** tool_call id → (name, arguments) over all assistant calls; later calls win, as in a dict. */
function indexToolCalls(messages: readonly Message[]): Map<unknown, CallInfo> {
  const calls = new Map<unknown, CallInfo>();
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls as unknown[]) {
      if (!isPlainObject(call)) continue;
      const fn = isPlainObject(call.function) ? call.function : {};
      const name = 'name' in fn ? fn.name : 'unknown';
      const args = fn.arguments;
      calls.set('id' in call ? call.id : '', {
        name: typeof name === 'string' ? name : pythonStr(name),
        // json.loads of a non-string raises TypeError, which the one-liner treats as `{}`.
        args: typeof args === 'string' ? args : '',
      });
    }
  }
  return calls;
}

const callFor = (calls: Map<unknown, CallInfo>, message: Message): CallInfo =>
  calls.get('tool_call_id' in message ? message.tool_call_id : '') ?? UNKNOWN_CALL;

/**
 * Where the protected tail starts: a backward walk over the token budget, floored by a count.
 * Exported so the worker's cached planner can place the boundary without re-pruning everything.
 */
export function findPruneBoundary(
  messages: readonly Message[],
  options: PruneOptions,
  preset: Preset,
): number {
  const count = messages.length;
  const budget = options.protectTailTokens;
  if (budget === null || !(budget > 0)) return count - options.protectTailCount;
  const floorMode = preset.pruning.boundaryFloor;
  const minProtect =
    floorMode === 'count-max'
      ? Math.min(options.protectTailCount, count)
      : Math.min(options.protectTailCount, count - 1);
  let accumulated = 0;
  let boundary = count;
  for (let index = count - 1; index >= 0; index--) {
    const tokens = pruneWalkTokens(messages[index]!, preset);
    if (accumulated + tokens > budget && count - index >= minProtect) {
      boundary = index;
      break;
    }
    accumulated += tokens;
    boundary = index;
  }
  // 2026-04 took the max in index space, which protects the *smaller* set: a generous budget
  // was cut back to min_protect. 2026-07 takes it in count space.
  return floorMode === 'count-max'
    ? count - Math.max(count - boundary, minProtect)
    : Math.max(boundary, count - minProtect);
}

const contentSize = (content: unknown): number =>
  typeof content === 'string' ? pythonLength(content) : pythonReprLength(content);

/**
 * Everything Phase 1 could replace in one transcript, computed once: the transcript with only
 * duplicates replaced (`dedupeOnly`, what pruning does inside the protected tail) and with every
 * tool output pruned as if it were old (`fullyPruned`). Pruning is positional, so for a prune
 * boundary B the real result is `fullyPruned[i]` below B and `dedupeOnly[i]` from B on; only the
 * boundary depends on the settings. The planner keeps one per transcript and preset, so a
 * settings change re-walks a boundary instead of re-pruning 10,000 messages.
 */
export interface ToolPruning {
  readonly dedupeOnly: readonly Message[];
  readonly fullyPruned: readonly Message[];
  /** Every replacement pruning could make, by index (duplicates anywhere, the rest if old). */
  readonly candidates: readonly PrunedToolOutput[];
  /** Every old tool result 2026-04's one-liner raises on, by index. */
  readonly raises: readonly PruneRaise[];
  /** The real Phase 1 result for a prune boundary. */
  at(pruneBoundary: number): PruneResult;
}

export function prepareToolPruning(messages: readonly Message[], preset: Preset): ToolPruning {
  const count = messages.length;
  const dedupe = dedupePass(messages);
  const fullyPruned = dedupe.messages.slice();
  const oldOnly = pruneBelow(fullyPruned, count, messages, preset);
  const candidates = [...dedupe.pruned, ...oldOnly.pruned].sort((left, right) => left.index - right.index);
  return {
    dedupeOnly: dedupe.messages,
    fullyPruned,
    candidates,
    raises: oldOnly.raises,
    at(pruneBoundary) {
      const boundary = Math.max(0, Math.min(count, pruneBoundary));
      const result = new Array<Message>(count);
      for (let index = 0; index < count; index++)
        result[index] = index < boundary ? fullyPruned[index]! : dedupe.messages[index]!;
      const pruned = candidates.filter((item) => item.kind === 'duplicate' || item.index < boundary);
      let prunedCount = 0;
      for (const item of pruned) if (item.kind !== 'arguments') prunedCount++;
      const raised = oldOnly.raises.find((raise) => raise.index < boundary) ?? null;
      return { messages: result, prunedCount, pruneBoundary: boundary, pruned, raised };
    },
  };
}

/**
 * Hermes `_prune_old_tool_results` (Phase 1 of `compress()`), on a shallow copy:
 * 1. dedupe: over all messages, newest first, an older tool output (≥ 200 chars) identical to a
 *    newer one becomes a back-reference;
 * 2. before the prune boundary, tool outputs over 200 chars become one-line summaries
 *    (2026-07 also replaces old screenshots with placeholders);
 * 3. before the boundary, tool-call arguments over 500 chars get their string leaves shrunk.
 */
export function pruneOldToolResults(
  messages: readonly Message[],
  options: PruneOptions,
  preset: Preset,
): PruneResult {
  if (messages.length === 0)
    return { messages: [], prunedCount: 0, pruneBoundary: 0, pruned: [], raised: null };
  const pruneBoundary = Math.max(0, Math.min(messages.length, findPruneBoundary(messages, options, preset)));
  const dedupe = dedupePass(messages);
  const result = dedupe.messages;
  const old = pruneBelow(result, pruneBoundary, messages, preset);
  const pruned = [...dedupe.pruned, ...old.pruned].sort((left, right) => left.index - right.index);
  let prunedCount = 0;
  for (const item of pruned) if (item.kind !== 'arguments') prunedCount++;
  return { messages: result, prunedCount, pruneBoundary, pruned, raised: old.raises[0] ?? null };
}

/** Pass 1: identical outputs (e.g. the same file read five times) keep only the newest copy. */
function dedupePass(messages: readonly Message[]): { messages: Message[]; pruned: PrunedToolOutput[] } {
  const result = messages.slice();
  const pruned: PrunedToolOutput[] = [];
  let calls: Map<unknown, CallInfo> | null = null;
  // Comparing the text itself is what Hermes' md5[:12] approximates.
  const seen = new Set<string>();
  for (let index = result.length - 1; index >= 0; index--) {
    const message = result[index]!;
    const content = message.content;
    if (message.role !== 'tool' || typeof content !== 'string') continue;
    if (content.length < DEDUPE_MIN_CHARS || pythonLength(content) < DEDUPE_MIN_CHARS) continue;
    if (!seen.has(content)) {
      seen.add(content);
      continue;
    }
    calls ??= indexToolCalls(messages);
    pruned.push({
      index,
      kind: 'duplicate',
      toolName: callFor(calls, message).name,
      originalChars: contentSize(content),
      replacement: DUPLICATE_TOOL_OUTPUT_PLACEHOLDER,
    });
    result[index] = { ...message, content: DUPLICATE_TOOL_OUTPUT_PLACEHOLDER };
  }
  return { messages: result, pruned };
}

/**
 * Passes 2 and 3 on `result[0:boundary]`, in place: old outputs become one-liners (old
 * screenshots placeholders), and huge tool-call arguments are shrunk. `original` is the
 * unpruned list, whose tool calls name the tools.
 */
function pruneBelow(
  result: Message[],
  boundary: number,
  original: readonly Message[],
  preset: Preset,
): { pruned: PrunedToolOutput[]; raises: PruneRaise[] } {
  const pruned: PrunedToolOutput[] = [];
  const raises: PruneRaise[] = [];
  const switches = preset.pruning;
  let calls: Map<unknown, CallInfo> | null = null;
  const callOf = (message: Message): CallInfo => callFor((calls ??= indexToolCalls(original)), message);
  const replaceContent = (
    index: number,
    kind: PrunedToolOutput['kind'],
    content: Message['content'],
  ): void => {
    const message = result[index]!;
    pruned.push({
      index,
      kind,
      toolName: callOf(message).name,
      originalChars: contentSize(message.content),
      replacement: typeof content === 'string' ? content : SCREENSHOT_REMOVED_PLACEHOLDER,
    });
    result[index] = { ...message, content };
  };

  for (let index = 0; index < boundary; index++) {
    const message = result[index]!;
    if (message.role === 'tool') {
      const content = message.content;
      if (Array.isArray(content)) {
        if (switches.stripsOldImages && content.some(isImagePart)) {
          const stripped = content.map((part) =>
            isImagePart(part) ? { type: 'text', text: SCREENSHOT_REMOVED_PLACEHOLDER } : part,
          );
          replaceContent(index, 'image', stripped);
        }
        continue;
      }
      if (isPlainObject(content)) {
        if (switches.stripsOldImages && pythonTruthy(content._multimodal)) {
          const summary = pythonTruthy(content.text_summary)
            ? content.text_summary
            : SCREENSHOT_REMOVED_PLACEHOLDER;
          const text = pythonSlice(pythonStr(summary), 0, SCREENSHOT_SUMMARY_MAX_CHARS);
          replaceContent(index, 'image', `${SCREENSHOT_REMOVED_PREFIX} ${text}`);
        }
        continue;
      }
      if (typeof content !== 'string' || content === '') continue;
      const isOldPlaceholder =
        switches.oldPlaceholderMatch === 'prefix'
          ? content.startsWith('[Old tool output')
          : content === PRUNED_TOOL_PLACEHOLDER;
      if (isOldPlaceholder || content.startsWith('[Duplicate tool output')) continue;
      if (content.length <= ONE_LINER_MIN_CHARS || pythonLength(content) <= ONE_LINER_MIN_CHARS) continue;
      const call = callOf(message);
      const line = summarizeToolResult(call.name, call.args, content, preset);
      if (line.ok) replaceContent(index, 'one-liner', line.value);
      else raises.push({ ...line.error, index });
      continue;
    }
    // Pass 3: shrink huge arguments (a 50 KB write_file) outside the protected tail.
    if (message.role !== 'assistant' || !hasToolCallsField(message) || !Array.isArray(message.tool_calls))
      continue;
    let modified = false;
    const toolCalls = message.tool_calls.map((call: ToolCall) => {
      if (!isPlainObject(call) || !isPlainObject(call.function)) return call;
      const args: unknown = call.function.arguments;
      if (typeof args !== 'string' || pythonLength(args) <= ARGUMENTS_SHRINK_MIN_CHARS) return call;
      const shrunk = truncateToolCallArgs(args);
      if (shrunk === args) return call;
      modified = true;
      pruned.push({
        index,
        kind: 'arguments',
        toolName: pythonStr(call.function.name),
        originalChars: pythonLength(args),
        replacement: shrunk,
      });
      return { ...call, function: { ...call.function, arguments: shrunk } };
    });
    if (modified) result[index] = { ...message, tool_calls: toolCalls };
  }
  return { pruned, raises };
}
