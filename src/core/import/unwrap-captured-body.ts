import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';

/**
 * The request payload of an HTTP capture `{method, path, headers, body}`, when there is one:
 * the body (or its JSON text) holding a `messages` array or a `type:"message"` response.
 */
export function unwrapCapturedBody(value: Record<string, unknown>): Record<string, unknown> | undefined {
  if (Array.isArray(value.messages)) return undefined;
  let body = value.body;
  if (typeof body === 'string') {
    const parsed = safeParseJson(body);
    body = parsed.ok ? parsed.value : undefined;
  }
  return isPlainObject(body) && (Array.isArray(body.messages) || body.type === 'message') ? body : undefined;
}
