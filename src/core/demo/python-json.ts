/** A JSON value as Python's `json.dumps` sees it. `undefined` members are left out. */
export type PythonJsonValue =
  | string
  | number
  | boolean
  | null
  | readonly PythonJsonValue[]
  | { readonly [key: string]: PythonJsonValue | undefined };

/**
 * Serialises like Python's `json.dumps(value, ensure_ascii=False)`: `", "` between items and
 * `": "` after keys. Hermes builds its tool results (and the arguments of tool calls it
 * converts from Anthropic blocks) this way, and its one-line summaries search the content
 * for `"exit_code": N` and `"total_count": N` with exactly that spacing.
 *
 * @example toPythonJson({ output: 'ok', exit_code: 0 }) // '{"output": "ok", "exit_code": 0}'
 */
export function toPythonJson(value: PythonJsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (isReadonlyArray(value)) return `[${value.map(toPythonJson).join(', ')}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    members.push(`${JSON.stringify(key)}: ${toPythonJson(member)}`);
  }
  return `{${members.join(', ')}}`;
}

// Array.isArray does not narrow readonly arrays, hence the wrapper.
function isReadonlyArray(value: unknown): value is readonly PythonJsonValue[] {
  return Array.isArray(value);
}
