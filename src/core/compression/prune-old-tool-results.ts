import type { Preset } from '../presets/preset.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import { pruneWalkTokens } from '../tokens/message-budget-tokens.ts';
import { pythonLength, pythonLengthExceeds, pythonSlice } from '../tokens/python-length.ts';
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
import { DEFAULT_ARGUMENT_HEAD_CHARS, truncateToolCallArgs } from './truncate-tool-call-args.ts';
import type { Result } from '../shared/result.ts';
import type { JsonParseError } from '../shared/safe-parse-json.ts';
import { parsePythonJson, type PythonJsonValue } from '../tokens/parse-python-json.ts';

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
    const messageCalls = message.tool_calls as unknown[];
    for (let i = 0; i < messageCalls.length; i++) {
      const call = messageCalls[i];
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
 * Everything Phase 1 could replace in one transcript: the transcript with only duplicates
 * replaced (`dedupeOnly`, what pruning does inside the protected tail) and with every tool
 * output pruned as if it were old (`fullyPruned`). Pruning is positional, so for a prune
 * boundary B the real result is `fullyPruned[i]` below B and `dedupeOnly[i]` from B on; only the
 * boundary depends on the settings. The planner keeps one per transcript and preset, so a
 * settings change re-walks a boundary instead of re-pruning 10,000 messages.
 *
 * Old outputs (one-liners, which parse their call's arguments; shrunk arguments) are pruned
 * lazily, up to the furthest boundary asked for: the protected tail is not pruned unless all of
 * it is asked for (`fullyPruned`, `candidates`, `raises`).
 */
export interface ToolPruning {
  readonly dedupeOnly: readonly Message[];
  readonly fullyPruned: readonly Message[];
  /** Every replacement pruning could make, by index (duplicates anywhere, the rest if old). */
  readonly candidates: readonly PrunedToolOutput[];
  /** Every old tool result 2026-04's one-liner raises on, by index. */
  readonly raises: readonly PruneRaise[];
  /** The real Phase 1 result for a prune boundary (shared between calls for one boundary: never changed by its readers). */
  at(pruneBoundary: number): PruneResult;
  /** Whether message `index` is an older copy of a duplicate output. */
  isDuplicate(index: number): boolean;
  /** Message `index` pruned as an old output, and whether pruning replaced anything in it. */
  oldVariant(index: number): { readonly message: Message; readonly replaced: boolean };
}

const byIndex = (left: PrunedToolOutput, right: PrunedToolOutput): number => left.index - right.index;

export function prepareToolPruning(messages: readonly Message[], preset: Preset): ToolPruning {
  const count = messages.length;
  const calls = lazyCallIndex(messages);
  const dedupe = dedupePass(messages, calls);
  const duplicates = new Set(dedupe.pruned.map((item) => item.index));
  const old = createOldPruner(dedupe.messages.slice(), preset, calls);
  /** The last boundary's result; callers never change a result they are given. */
  let lastAt: PruneResult | null = null;
  return {
    dedupeOnly: dedupe.messages,
    get fullyPruned() {
      old.extendTo(count);
      return old.result;
    },
    get candidates() {
      old.extendTo(count);
      return [...dedupe.pruned, ...old.pruned].sort(byIndex);
    },
    get raises() {
      old.extendTo(count);
      return old.raises;
    },
    isDuplicate: (index) => duplicates.has(index),
    oldVariant(index) {
      old.extendTo(index + 1);
      return { message: old.result[index]!, replaced: old.replaced.has(index) };
    },
    at(pruneBoundary) {
      const boundary = Math.max(0, Math.min(count, pruneBoundary));
      // The plan and the compaction after it ask for the same boundary: answer it once.
      if (lastAt !== null && lastAt.pruneBoundary === boundary) return lastAt;
      old.extendTo(boundary);
      const result = new Array<Message>(count);
      for (let index = 0; index < count; index++)
        result[index] = index < boundary ? old.result[index]! : dedupe.messages[index]!;
      const below: PrunedToolOutput[] = [];
      for (const item of old.pruned) if (item.index < boundary) below.push(item);
      // A stable sort of the same items in the same order: what filtering all candidates gave.
      const pruned = [...dedupe.pruned, ...below].sort(byIndex);
      let prunedCount = 0;
      for (const item of pruned) if (item.kind !== 'arguments') prunedCount++;
      const raised = old.raises.find((raise) => raise.index < boundary) ?? null;
      lastAt = { messages: result, prunedCount, pruneBoundary: boundary, pruned, raised };
      return lastAt;
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
  const calls = lazyCallIndex(messages);
  const dedupe = dedupePass(messages, calls);
  const result = dedupe.messages;
  const old = createOldPruner(result, preset, calls);
  old.extendTo(pruneBoundary);
  const pruned = [...dedupe.pruned, ...old.pruned].sort(byIndex);
  let prunedCount = 0;
  for (const item of pruned) if (item.kind !== 'arguments') prunedCount++;
  return { messages: result, prunedCount, pruneBoundary, pruned, raised: old.raises[0] ?? null };
}

/** The transcript's tool calls by id, indexed on first use and shared by the passes. */
function lazyCallIndex(messages: readonly Message[]): () => Map<unknown, CallInfo> {
  let calls: Map<unknown, CallInfo> | null = null;
  return () => (calls ??= indexToolCalls(messages));
}

/** Pass 1: identical outputs (e.g. the same file read five times) keep only the newest copy. */
function dedupePass(
  messages: readonly Message[],
  calls: () => Map<unknown, CallInfo>,
): { messages: Message[]; pruned: PrunedToolOutput[] } {
  const result = messages.slice();
  const pruned: PrunedToolOutput[] = [];
  // Comparing the text itself is what Hermes' md5[:12] approximates. Texts are grouped by
  // length first: only one of a length already seen is compared (hashing every output of a
  // large transcript was most of this pass), and equal texts have equal lengths.
  const seenByLength = new Map<number, string | Set<string>>();
  const isRepeat = (content: string): boolean => {
    const seen = seenByLength.get(content.length);
    if (seen === undefined) {
      seenByLength.set(content.length, content);
      return false;
    }
    if (typeof seen === 'string') {
      if (seen === content) return true;
      seenByLength.set(content.length, new Set([seen, content]));
      return false;
    }
    if (seen.has(content)) return true;
    seen.add(content);
    return false;
  };
  for (let index = result.length - 1; index >= 0; index--) {
    const message = result[index]!;
    const content = message.content;
    if (message.role !== 'tool' || typeof content !== 'string') continue;
    if (!pythonLengthExceeds(content, DEDUPE_MIN_CHARS - 1)) continue;
    if (!isRepeat(content)) continue;
    pruned.push({
      index,
      kind: 'duplicate',
      toolName: callFor(calls(), message).name,
      originalChars: contentSize(content),
      replacement: DUPLICATE_TOOL_OUTPUT_PLACEHOLDER,
    });
    result[index] = { ...message, content: DUPLICATE_TOOL_OUTPUT_PLACEHOLDER };
  }
  return { messages: result, pruned };
}

interface OldPruner {
  /** The list being pruned in place; pruned up to the furthest `extendTo` so far. */
  readonly result: Message[];
  readonly pruned: PrunedToolOutput[];
  readonly raises: PruneRaise[];
  /** Indices whose message pruning replaced. */
  readonly replaced: Set<number>;
  extendTo(boundary: number): void;
}

/**
 * Passes 2 and 3 on `result`, in place and in index order, as far as asked (`extendTo`): old
 * outputs become one-liners (old screenshots placeholders), and huge tool-call arguments are
 * shrunk. Each message is pruned on its own, so pruning to one boundary and later further is
 * the same as pruning to the further one at once.
 */
function createOldPruner(result: Message[], preset: Preset, calls: () => Map<unknown, CallInfo>): OldPruner {
  const pruned: PrunedToolOutput[] = [];
  const raises: PruneRaise[] = [];
  const replaced = new Set<number>();
  const switches = preset.pruning;
  let done = 0;
  const callOf = (message: Message): CallInfo => callFor(calls(), message);
  // Long arguments are parsed when their call is shrunk (pass 3), and again by the one-liner of
  // the result it answers, which comes later in the same walk: the parse is kept until then.
  const parsedArguments = new Map<string, Result<PythonJsonValue, JsonParseError>>();
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
    replaced.add(index);
  };

  const pruneToolResult = (index: number, message: Message): void => {
    const content = message.content;
    if (Array.isArray(content)) {
      if (switches.stripsOldImages && content.some(isImagePart)) {
        const stripped = content.map((part) =>
          isImagePart(part) ? { type: 'text', text: SCREENSHOT_REMOVED_PLACEHOLDER } : part,
        );
        replaceContent(index, 'image', stripped);
      }
      return;
    }
    if (isPlainObject(content)) {
      if (switches.stripsOldImages && pythonTruthy(content._multimodal)) {
        const summary = pythonTruthy(content.text_summary)
          ? content.text_summary
          : SCREENSHOT_REMOVED_PLACEHOLDER;
        const text = pythonSlice(pythonStr(summary), 0, SCREENSHOT_SUMMARY_MAX_CHARS);
        replaceContent(index, 'image', `${SCREENSHOT_REMOVED_PREFIX} ${text}`);
      }
      return;
    }
    if (typeof content !== 'string' || content === '') return;
    const isOldPlaceholder =
      switches.oldPlaceholderMatch === 'prefix'
        ? content.startsWith('[Old tool output')
        : content === PRUNED_TOOL_PLACEHOLDER;
    if (isOldPlaceholder || content.startsWith('[Duplicate tool output')) return;
    if (!pythonLengthExceeds(content, ONE_LINER_MIN_CHARS)) return;
    const call = callOf(message);
    const parsed = parsedArguments.get(call.args);
    parsedArguments.delete(call.args);
    const line = summarizeToolResult(call.name, call.args, content, preset, parsed);
    if (line.ok) replaceContent(index, 'one-liner', line.value);
    else raises.push({ ...line.error, index });
  };

  // Pass 3: shrink huge arguments (a 50 KB write_file) outside the protected tail.
  const shrinkArguments = (index: number, message: Message): void => {
    if (message.role !== 'assistant' || !hasToolCallsField(message) || !Array.isArray(message.tool_calls))
      return;
    let modified = false;
    const toolCalls = message.tool_calls.map((call: ToolCall) => {
      if (!isPlainObject(call) || !isPlainObject(call.function)) return call;
      const args: unknown = call.function.arguments;
      if (typeof args !== 'string' || !pythonLengthExceeds(args, ARGUMENTS_SHRINK_MIN_CHARS)) return call;
      const parsed = parsePythonJson(args);
      parsedArguments.set(args, parsed);
      const shrunk = truncateToolCallArgs(args, DEFAULT_ARGUMENT_HEAD_CHARS, parsed);
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
    if (modified) {
      result[index] = { ...message, tool_calls: toolCalls };
      replaced.add(index);
    }
  };

  return {
    result,
    pruned,
    raises,
    replaced,
    extendTo(boundary) {
      for (; done < boundary; done++) {
        const message = result[done]!;
        if (message.role === 'tool') pruneToolResult(done, message);
        else shrinkArguments(done, message);
      }
      // Kept parses only serve results within this walk; a later one parses again.
      parsedArguments.clear();
    },
  };
}
