import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { ImportContext } from './import-context.ts';
import { childPath, type SourceLocation } from './import-warning.ts';
import { stringifyJsonValue } from './stringify-json-value.ts';
import { toolArgumentsJson } from './tool-arguments-json.ts';

/** A string field, or '' (Codex items leave fields out or null them freely). */
export function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The tool name of a call item; shell and tool-search calls carry none of their own. */
export function callName(item: Record<string, unknown>): string {
  if (typeof item.name === 'string' && item.name) return item.name;
  if (isPlainObject(item.function) && typeof item.function.name === 'string') return item.function.name;
  if (item.type === 'local_shell_call') return 'local_shell';
  if (item.type === 'tool_search_call') return 'tool_search';
  return 'unknown';
}

/** Arguments as a JSON string; a custom tool's free-form input is wrapped as `{"input": …}`. */
export function callArguments(
  item: Record<string, unknown>,
  at: SourceLocation,
  context: ImportContext,
): string {
  if (item.type === 'custom_tool_call') return stringifyJsonValue({ input: stringOf(item.input) }) ?? '{}';
  if (item.type === 'local_shell_call')
    return toolArgumentsJson(item.action ?? {}, { ...at, path: childPath(at.path, 'action') }, context);
  return toolArgumentsJson(item.arguments ?? {}, { ...at, path: childPath(at.path, 'arguments') }, context);
}

/** What a `web_search_call` searched for: its query, queries, or opened url. */
export function webSearchQuery(action: unknown): string {
  if (!isPlainObject(action)) return '';
  if (typeof action.query === 'string') return action.query;
  if (Array.isArray(action.queries))
    return action.queries.filter((query) => typeof query === 'string').join('; ');
  return typeof action.url === 'string' ? action.url : '';
}
