import { err, ok, type Result } from './result.ts';

export interface JsonParseError {
  readonly type: 'JsonParseError';
  /** The parser's own message, e.g. "Unexpected token } in JSON at position 12". */
  readonly message: string;
}

/** The only place in core that calls JSON.parse: everything else gets a Result. */
export function safeParseJson(text: string): Result<unknown, JsonParseError> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (error) {
    return err({ type: 'JsonParseError', message: error instanceof Error ? error.message : String(error) });
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
