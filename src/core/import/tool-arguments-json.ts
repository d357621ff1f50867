import { formatCount } from '../shared/format-count.ts';
import type { ImportContext } from './import-context.ts';
import { nestingDepth } from './is-within-depth.ts';
import type { SourceLocation } from './import-warning.ts';
import { stringifyJsonValue } from './stringify-json-value.ts';

/**
 * A call's arguments as the JSON string a tool call carries: a string as written, nothing as
 * `{}`, a structure as its JSON. One nested too deep for the engine's JSON writer becomes `{}`
 * with a warning naming where it was and how deep it went: nothing is replaced silently.
 */
export function toolArgumentsJson(value: unknown, at: SourceLocation, context: ImportContext): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '{}';
  const json = stringifyJsonValue(value);
  if (json !== undefined) return json;
  context.repaired(
    at,
    `nests ${formatCount(nestingDepth(value))} levels deep, more than JSON can be written from; replaced by {}`,
  );
  return '{}';
}
