/**
 * A model's call of one of the browser tools, parsed and validated (C7: parse, don't cast).
 * A bad call is a value the loop turns into an error tool result, so the model can correct itself.
 */
import { err, ok, type Result } from '../shared/result.ts';
import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import type { ToolCall } from '../transcript/message.ts';
import {
  DEFAULT_READ_LIMIT_CHARS,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  READ_PERSISTED_OUTPUT_TOOL_NAME,
  SEARCH_SESSIONS_TOOL_NAME,
} from './browser-tool-schemas.ts';

export type BrowserToolCall =
  | {
      readonly tool: 'read_persisted_output';
      readonly fileName: string;
      readonly offset: number;
      readonly limit: number;
    }
  | { readonly tool: 'search_sessions'; readonly query: string; readonly limit: number };

export type BrowserToolCallError =
  | { readonly type: 'UnknownTool'; readonly name: string }
  | { readonly type: 'InvalidArguments'; readonly name: string; readonly details: string };

/** Models sometimes call the tool by the name the `<persisted-output>` note gives (`read_file`). */
const READ_ALIASES: ReadonlySet<string> = new Set([READ_PERSISTED_OUTPUT_TOOL_NAME, 'read_file']);

export function parseBrowserToolCall(call: ToolCall): Result<BrowserToolCall, BrowserToolCallError> {
  const name = call.function.name;
  const isRead = READ_ALIASES.has(name);
  if (!isRead && name !== SEARCH_SESSIONS_TOOL_NAME) return err({ type: 'UnknownTool', name });
  const raw = call.function.arguments.trim() === '' ? '{}' : call.function.arguments;
  const parsed = safeParseJson(raw);
  if (!parsed.ok) return invalid(name, `arguments are not JSON (${parsed.error.message})`);
  const args = parsed.value;
  if (!isPlainObject(args)) return invalid(name, 'arguments must be a JSON object');
  if (isRead) {
    const file = typeof args.file === 'string' ? args.file : typeof args.path === 'string' ? args.path : '';
    const fileName = file.trim().split('/').pop() ?? '';
    if (fileName === '') return invalid(name, '"file" is required');
    const offset = wholeNumber(args.offset, 0);
    const limit = wholeNumber(args.limit, DEFAULT_READ_LIMIT_CHARS);
    if (offset === null || offset < 0) return invalid(name, '"offset" must be a whole number ≥ 0');
    if (limit === null || limit < 1) return invalid(name, '"limit" must be a whole number ≥ 1');
    return ok({
      tool: 'read_persisted_output',
      fileName,
      offset,
      limit: Math.min(limit, DEFAULT_READ_LIMIT_CHARS),
    });
  }
  const query = typeof args.query === 'string' ? args.query.trim() : '';
  if (query === '') return invalid(name, '"query" is required');
  const limit = wholeNumber(args.limit, DEFAULT_SEARCH_LIMIT);
  if (limit === null || limit < 1) return invalid(name, '"limit" must be a whole number ≥ 1');
  return ok({ tool: 'search_sessions', query, limit: Math.min(limit, MAX_SEARCH_LIMIT) });
}

export function describeBrowserToolCallError(error: BrowserToolCallError): string {
  return error.type === 'UnknownTool'
    ? `Error: there is no tool named "${error.name}".`
    : `Error: invalid arguments for ${error.name}: ${error.details}.`;
}

function invalid(name: string, details: string): Result<never, BrowserToolCallError> {
  return err({ type: 'InvalidArguments', name, details });
}

/** The value as a whole number, the fallback when absent, null when present but not whole. */
function wholeNumber(value: unknown, fallback: number): number | null {
  if (value === undefined || value === null) return fallback;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : null;
}
