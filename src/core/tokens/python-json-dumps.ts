import { PythonFloat, pythonFloatRepr, pythonIntRepr } from './python-float.ts';
import { hasSurrogates, pythonLength } from './python-length.ts';

/**
 * Python `json.dumps(value, ensure_ascii=False, separators=…, sort_keys=…)`.
 * Differences from JSON.stringify that matter here: spacing (`", "`, `": "` by default),
 * floats keep Python's repr (`1.0`, `1e+16`), NaN/Infinity are written bare, and lone
 * surrogates are written raw instead of `\udXXX`.
 */
export interface PythonJsonDumpsOptions {
  /** Python's default is `', '`; `_estimate_tools_tokens_rough` uses `','`. */
  itemSeparator?: string;
  /** Python's default is `': '`. */
  keySeparator?: string;
  sortKeys?: boolean;
}

const DEFAULT_ITEM_SEPARATOR = ', ';
const DEFAULT_KEY_SEPARATOR = ': ';

/** A JSON string literal the way Python writes it with ensure_ascii=False. */
export function pythonJsonString(text: string): string {
  if (!hasSurrogates(text)) return JSON.stringify(text);
  // Only lone surrogates differ from JSON.stringify; walk the rare strings that have any.
  let out = '"';
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 0x22) out += '\\"';
    else if (unit === 0x5c) out += '\\\\';
    else if (unit < 0x20) out += JSON.stringify(text[index]).slice(1, -1);
    else out += text[index];
  }
  return out + '"';
}

function floatText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  return pythonFloatRepr(value);
}

function entriesOf(value: object, sortKeys: boolean): [string, unknown][] {
  const entries: [string, unknown][] =
    value instanceof Map
      ? [...(value as Map<unknown, unknown>).entries()].map(([key, item]) => [String(key), item])
      : Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  if (sortKeys) entries.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return entries;
}

export function pythonJsonDumps(value: unknown, options: PythonJsonDumpsOptions = {}): string {
  const itemSeparator = options.itemSeparator ?? DEFAULT_ITEM_SEPARATOR;
  const keySeparator = options.keySeparator ?? DEFAULT_KEY_SEPARATOR;
  const sortKeys = options.sortKeys ?? false;
  const dump = (item: unknown): string => {
    if (item === null || item === undefined) return 'null';
    switch (typeof item) {
      case 'string':
        return pythonJsonString(item);
      case 'boolean':
        return item ? 'true' : 'false';
      case 'number':
        return Number.isInteger(item) ? pythonIntRepr(item) : floatText(item);
      case 'bigint':
        return item.toString();
      case 'object': {
        if (item instanceof PythonFloat) return floatText(item.value);
        if (Array.isArray(item)) return `[${item.map(dump).join(itemSeparator)}]`;
        const entries = entriesOf(item, sortKeys);
        return `{${entries.map(([key, entry]) => pythonJsonString(key) + keySeparator + dump(entry)).join(itemSeparator)}}`;
      }
      default:
        // Python's `default=str` fallback, for completeness: only a symbol or a function is left.
        // eslint-disable-next-line @typescript-eslint/no-base-to-string
        return pythonJsonString(String(item));
    }
  };
  return dump(value);
}

/** `len(json.dumps(value, ensure_ascii=False, …))` in code points (key order does not change it). */
export function pythonJsonDumpsLength(value: unknown, options: PythonJsonDumpsOptions = {}): number {
  if (typeof value === 'string') {
    return hasSurrogates(value) ? pythonLength(pythonJsonString(value)) : JSON.stringify(value).length;
  }
  return pythonLength(pythonJsonDumps(value, options));
}
