import type { Result } from '../shared/result.ts';
import type { JsonParseError } from '../shared/safe-parse-json.ts';
import { parsePythonJson, type PythonJsonValue } from '../tokens/parse-python-json.ts';
import { pythonJsonDumps } from '../tokens/python-json-dumps.ts';
import { pythonLength, pythonSlice } from '../tokens/python-length.ts';

/** Appended to every string leaf that was cut. */
export const TRUNCATED_MARKER = '...[truncated]';
/** Characters kept of each long string leaf. */
export const DEFAULT_ARGUMENT_HEAD_CHARS = 200;

function shrink(value: PythonJsonValue, headChars: number): PythonJsonValue {
  if (typeof value === 'string') {
    return pythonLength(value) > headChars ? pythonSlice(value, 0, headChars) + TRUNCATED_MARKER : value;
  }
  if (Array.isArray(value)) return value.map((item) => shrink(item, headChars));
  if (value instanceof Map) {
    const shrunk = new Map<string, PythonJsonValue>();
    for (const [key, item] of value) shrunk.set(key, shrink(item, headChars));
    return shrunk;
  }
  return value;
}

/**
 * Hermes `_truncate_tool_call_args_json(args, head_chars=200)`: cut every string leaf longer
 * than `headChars` to its head plus `...[truncated]`, keeping the JSON valid (slicing the raw
 * text broke providers, #11762). The result is re-serialised the way Python's
 * `json.dumps(ensure_ascii=False)` writes it (`", "` / `": "`, key order kept, `1.0` stays a
 * float), so even untouched JSON gets normalised spacing. Non-JSON arguments come back unchanged.
 */
export function truncateToolCallArgs(
  args: string,
  headChars = DEFAULT_ARGUMENT_HEAD_CHARS,
  /** `parsePythonJson(args)` when the caller has it already. */
  parsed: Result<PythonJsonValue, JsonParseError> = parsePythonJson(args),
): string {
  if (!parsed.ok) return args;
  return pythonJsonDumps(shrink(parsed.value, headChars));
}
