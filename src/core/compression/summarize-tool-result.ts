import type { Preset } from '../presets/preset.ts';
import { formatCount } from '../shared/format-count.ts';
import { type HermesRaised, hermesRaised } from '../shared/hermes-raised.ts';
import { err, ok, type Result } from '../shared/result.ts';
import type { JsonParseError } from '../shared/safe-parse-json.ts';
import { parsePythonJson, type PythonJsonValue } from '../tokens/parse-python-json.ts';
import { PythonFloat } from '../tokens/python-float.ts';
import { pythonCharacters, pythonLength, pythonSlice } from '../tokens/python-length.ts';
import { pythonStr } from '../tokens/python-repr.ts';
import { pythonHasNonWhitespace, pythonTruthy } from '../tokens/python-truthy.ts';

/** The Hermes function this module reproduces, named in a refusal. */
const FUNCTION_NAME = '_summarize_tool_result';

/**
 * Hermes `_summarize_tool_result(tool_name, tool_args, tool_content)`: the one-line summary an
 * old tool result is replaced with during pruning, e.g.
 * `[terminal] ran \`npm test\` -> exit 0, 47 lines output`.
 *
 * 2026-07 coerces odd argument values, and any exception becomes `[<tool>] (<N> chars result)`.
 * 2026-04 used the values raw and raised on some (a dict URL with more URLs, a non-string
 * command, non-dict arguments): there the port refuses with Python's exception line rather than
 * return a line 2026-04 never produced.
 */
export function summarizeToolResult(
  toolName: string,
  toolArgs: string,
  toolContent: string,
  preset: Preset,
  /** `parsePythonJson(toolArgs)` when the caller already has it (pruning parsed the call's arguments). */
  parsedArgs?: Result<PythonJsonValue, JsonParseError>,
): Result<string, HermesRaised> {
  const content = toolContent || '';
  const mode = preset.pruning.oneLiners;
  try {
    return ok(describe(toolName, parseArguments(toolArgs, preset, parsedArgs), content, mode));
  } catch (error) {
    if (!(error instanceof PythonCrash)) throw error;
    if (mode === 'legacy') return err(hermesRaised(FUNCTION_NAME, error.message));
    return ok(`[${toolName}] (${formatCount(pythonLength(content))} chars result)`);
  }
}

/**
 * Where Hermes' Python raised (TypeError, AttributeError) inside the one-liner, carrying
 * Python's exception line. Thrown and caught only within this module: it is the exact point of
 * Python's exception, which keeps each branch a readable transcription of the original instead
 * of a chain of null checks.
 */
class PythonCrash extends Error {}

/** Python's `type(value).__name__` for a parsed JSON value. */
function pythonTypeName(value: PythonJsonValue): string {
  if (value === null) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number' || typeof value === 'bigint') return 'int';
  if (typeof value === 'string') return 'str';
  if (value instanceof PythonFloat) return 'float';
  return Array.isArray(value) ? 'list' : 'dict';
}

const noAttribute = (value: PythonJsonValue, attribute: string): PythonCrash =>
  new PythonCrash(`AttributeError: '${pythonTypeName(value)}' object has no attribute '${attribute}'`);

/** `value[:n]` on a value that is not a str or list (Python 3.11 wording). */
const notSliceable = (value: PythonJsonValue): PythonCrash =>
  new PythonCrash(
    value instanceof Map
      ? "TypeError: unhashable type: 'slice'"
      : `TypeError: '${pythonTypeName(value)}' object is not subscriptable`,
  );

type Arguments = PythonJsonValue;
type Mode = 'legacy' | 'guarded';

const BROWSER_TOOLS = new Set([
  'browser_navigate',
  'browser_click',
  'browser_snapshot',
  'browser_type',
  'browser_scroll',
  'browser_vision',
]);
const SKILL_TOOLS = new Set(['skill_view', 'skills_list', 'skill_manage']);

/** `json.loads(tool_args) if tool_args else {}`, unparseable → `{}`; 2026-07 also maps non-dicts to `{}`. */
function parseArguments(
  toolArgs: string,
  preset: Preset,
  parsedArgs: Result<PythonJsonValue, JsonParseError> | undefined,
): Arguments {
  if (!toolArgs) return new Map();
  const parsed = parsedArgs ?? parsePythonJson(toolArgs);
  if (!parsed.ok) return new Map();
  if (preset.pruning.oneLiners === 'guarded' && !(parsed.value instanceof Map)) return new Map();
  return parsed.value;
}

/** `args.get(key, default)`; on a non-dict that is Python's AttributeError. */
function get(args: Arguments, key: string, fallback: PythonJsonValue): PythonJsonValue {
  if (!(args instanceof Map)) throw noAttribute(args, 'get');
  return args.has(key) ? args.get(key)! : fallback;
}

/** Hermes `_str_arg`: strings as is, None → the default, anything else `str()`-ed. */
function stringArgument(args: Arguments, key: string): string {
  const value = get(args, key, '');
  if (typeof value === 'string') return value;
  return value === null ? '' : pythonStr(value);
}

/** Python `len(value)`: strings, lists and dicts have one; anything else raises TypeError. */
function sizedLength(value: PythonJsonValue): number {
  if (typeof value === 'string') return pythonLength(value);
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map) return value.size;
  throw new PythonCrash(`TypeError: object of type '${pythonTypeName(value)}' has no len()`);
}

/** Python `value[:end] + "..."` where only a string supports both. */
function cutWithEllipsis(value: PythonJsonValue, end: number): string {
  if (Array.isArray(value)) throw new PythonCrash('TypeError: can only concatenate list (not "str") to list');
  if (typeof value !== 'string') throw notSliceable(value);
  return `${pythonSlice(value, 0, end)}...`;
}

/** Python `value += suffix`: strings concatenate, lists are extended by the suffix's characters. */
function appendText(value: PythonJsonValue, suffix: string): PythonJsonValue {
  if (typeof value === 'string') return value + suffix;
  if (Array.isArray(value)) return [...value, ...pythonCharacters(suffix)];
  throw new PythonCrash(
    `TypeError: unsupported operand type(s) for +=: '${pythonTypeName(value)}' and 'str'`,
  );
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

const PYTHON_SPACE =
  '[\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const AFTER_EXIT_CODE = new RegExp(`${PYTHON_SPACE}*:${PYTHON_SPACE}*(-?\\p{Nd}+)`, 'uy');
const AFTER_TOTAL_COUNT = new RegExp(`${PYTHON_SPACE}*:${PYTHON_SPACE}*(\\p{Nd}+)`, 'uy');

/**
 * `re.search(r'"<key>"\s*:\s*(<digits>)', text).group(1)` with Python's Unicode `\s`/`\d`.
 * Looks for the literal key with indexOf first, so a long output is not regex-scanned.
 */
function searchNumberAfterKey(text: string, key: string, tail: RegExp): string | null {
  const literal = `"${key}"`;
  for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + 1)) {
    tail.lastIndex = at + literal.length;
    const match = tail.exec(text);
    if (match) return match[1]!;
  }
  return null;
}

/** `{len(content):,}`. A function of its own, not a closure per call: describe runs per pruned result. */
const charCount = (content: string): string => formatCount(pythonLength(content));

/** `content.count("\n") + 1` when the content has any non-whitespace, else 0. */
const lineCount = (content: string): number =>
  pythonHasNonWhitespace(content) ? countNewlines(content) + 1 : 0;

function describe(toolName: string, args: Arguments, content: string, mode: Mode): string {
  const str = pythonStr;

  if (toolName === 'terminal') {
    let command: PythonJsonValue =
      mode === 'guarded' ? stringArgument(args, 'command') : get(args, 'command', '');
    if (sizedLength(command) > 80) command = cutWithEllipsis(command, 77);
    const exitCode = searchNumberAfterKey(content, 'exit_code', AFTER_EXIT_CODE) ?? '?';
    return `[terminal] ran \`${str(command)}\` -> exit ${exitCode}, ${lineCount(content)} lines output`;
  }
  if (toolName === 'read_file') {
    return `[read_file] read ${str(get(args, 'path', '?'))} from line ${str(get(args, 'offset', 1))} (${charCount(content)} chars)`;
  }
  if (toolName === 'write_file') {
    const path = get(args, 'path', '?');
    return `[write_file] wrote to ${str(path)} (${writtenLines(args, mode)} lines)`;
  }
  if (toolName === 'search_files') {
    const pattern = get(args, 'pattern', '?');
    const path = get(args, 'path', '.');
    const target = get(args, 'target', 'content');
    const count = searchNumberAfterKey(content, 'total_count', AFTER_TOTAL_COUNT) ?? '?';
    return `[search_files] ${str(target)} search for '${str(pattern)}' in ${str(path)} -> ${count} matches`;
  }
  if (toolName === 'patch') {
    const path = get(args, 'path', '?');
    return `[patch] ${str(get(args, 'mode', 'replace'))} in ${str(path)} (${charCount(content)} chars result)`;
  }
  if (BROWSER_TOOLS.has(toolName)) {
    const url = get(args, 'url', '');
    const ref = get(args, 'ref', '');
    const detail = pythonTruthy(url) ? ` ${str(url)}` : pythonTruthy(ref) ? ` ref=${str(ref)}` : '';
    return `[${toolName}]${detail} (${charCount(content)} chars)`;
  }
  if (toolName === 'web_search')
    return `[web_search] query='${str(get(args, 'query', '?'))}' (${charCount(content)} chars result)`;
  if (toolName === 'web_extract')
    return `[web_extract] ${str(extractedUrls(args, mode))} (${charCount(content)} chars)`;
  if (toolName === 'delegate_task') {
    let goal: PythonJsonValue = mode === 'guarded' ? stringArgument(args, 'goal') : get(args, 'goal', '');
    if (sizedLength(goal) > 60) goal = cutWithEllipsis(goal, 57);
    return `[delegate_task] '${str(goal)}' (${charCount(content)} chars result)`;
  }
  if (toolName === 'execute_code') {
    let code: string;
    let ellipsis: boolean;
    if (mode === 'guarded') {
      code = stringArgument(args, 'code');
      ellipsis = pythonLength(code) > 60;
    } else {
      // 2026-04: `(args.get("code") or "")[:60].replace("\n", " ")`, which only a string (or a
      // falsy value) survives, then `len(args.get("code", "")) > 60` on the raw value.
      const given = get(args, 'code', null);
      const sliced = pythonTruthy(given) ? given : '';
      if (Array.isArray(sliced)) throw noAttribute(sliced, 'replace');
      if (typeof sliced !== 'string') throw notSliceable(sliced);
      code = sliced;
      ellipsis = sizedLength(get(args, 'code', '')) > 60;
    }
    const preview = pythonSlice(code, 0, 60).replaceAll('\n', ' ') + (ellipsis ? '...' : '');
    return `[execute_code] \`${preview}\` (${lineCount(content)} lines output)`;
  }
  if (SKILL_TOOLS.has(toolName))
    return `[${toolName}] name=${str(get(args, 'name', '?'))} (${charCount(content)} chars)`;
  if (toolName === 'vision_analyze')
    return `[vision_analyze] '${str(visionQuestion(args, mode))}' (${charCount(content)} chars)`;
  if (toolName === 'memory')
    return `[memory] ${str(get(args, 'action', '?'))} on ${str(get(args, 'target', '?'))}`;
  if (toolName === 'todo') return '[todo] updated task list';
  if (toolName === 'clarify') return '[clarify] asked user a question';
  if (toolName === 'text_to_speech') return `[text_to_speech] generated audio (${charCount(content)} chars)`;
  if (toolName === 'cronjob') return `[cronjob] ${str(get(args, 'action', '?'))}`;
  if (toolName === 'process') {
    const action = get(args, 'action', '?');
    return `[process] ${str(action)} session=${str(get(args, 'session_id', '?'))}`;
  }
  if (!(args instanceof Map)) throw noAttribute(args, 'items');
  let firstArguments = '';
  for (const [key, value] of [...args.entries()].slice(0, 2)) {
    firstArguments += ` ${key}=${pythonSlice(str(value), 0, 40)}`;
  }
  return `[${toolName}]${firstArguments} (${charCount(content)} chars result)`;
}

/** `content.count("\n") + 1 if args.get("content") else "?"` (2026-04 needs a str or list to count in). */
function writtenLines(args: Arguments, mode: Mode): string {
  const written = get(args, 'content', null);
  if (!pythonTruthy(written)) return '?';
  if (mode === 'guarded') return String(countNewlines(stringArgument(args, 'content')) + 1);
  if (typeof written === 'string') return String(countNewlines(written) + 1);
  if (Array.isArray(written)) return String(written.filter((item) => item === '\n').length + 1);
  throw noAttribute(written, 'count');
}

/** The first URL (+K more). 2026-07 unwraps `{url|href}` dicts and turns other non-strings into `?`. */
function extractedUrls(args: Arguments, mode: Mode): PythonJsonValue {
  const urls = get(args, 'urls', []);
  const isList = Array.isArray(urls);
  let first: PythonJsonValue = isList && urls.length > 0 ? urls[0]! : '?';
  if (mode === 'guarded') {
    if (first instanceof Map) {
      const url = first.get('url');
      const href = first.get('href');
      first = pythonTruthy(url) ? url! : pythonTruthy(href) ? href! : '?';
    } else if (typeof first !== 'string') {
      first = '?';
    }
  }
  return isList && urls.length > 1 ? appendText(first, ` (+${urls.length - 1} more)`) : first;
}

function visionQuestion(args: Arguments, mode: Mode): PythonJsonValue {
  if (mode === 'guarded') return pythonSlice(stringArgument(args, 'question'), 0, 50);
  const question = get(args, 'question', '');
  if (typeof question === 'string') return pythonSlice(question, 0, 50);
  if (Array.isArray(question)) return question.slice(0, 50);
  throw notSliceable(question);
}
