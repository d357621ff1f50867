import type { ClassifiedError } from '../../core/errors/classified-error.ts';
import type { ChatProvider } from './chat-client.ts';

/**
 * - `http`: the provider answered with an error status (or an error event mid-stream);
 * - `network`: no answer (DNS, refused, CORS, dropped before the headers);
 * - `offline`: no answer, and the browser reports no network connection (`navigator.onLine`);
 * - `timeout`: our deadline passed;
 * - `aborted`: the caller cancelled;
 * - `stream-cut`: the stream ended or broke before its final event;
 * - `invalid-response`: an answer that is not the API's shape;
 * - `configuration`: the settings cannot make a request (no key, bad base URL).
 */
export type LlmErrorKind =
  | 'http'
  | 'network'
  | 'offline'
  | 'timeout'
  | 'aborted'
  | 'stream-cut'
  | 'invalid-response'
  | 'configuration';

export interface LlmErrorInit {
  kind: LlmErrorKind;
  provider: ChatProvider;
  /** Already free of the API key (see `redactSecret`). */
  message: string;
  status?: number | undefined;
  body?: unknown;
  /** Response headers, lower-cased. */
  headers?: Readonly<Record<string, string>> | undefined;
  retryAfterMs?: number | undefined;
  classification?: ClassifiedError | undefined;
}

/** Registered symbols are shared by every realm, so the guard also knows errors from another bundle copy or frame. */
const LLM_ERROR_MARKER = Symbol.for('context-lab.llm-error');

/**
 * Every failure of a provider call. `classification` is core's `classifyApiError` verdict,
 * which decides retries and overflow recovery; `retryAfterMs` comes from the response headers.
 * The message never contains the API key.
 */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly kind: LlmErrorKind;
  readonly provider: ChatProvider;
  readonly status: number | undefined;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly retryAfterMs: number | undefined;
  readonly classification: ClassifiedError | undefined;
  readonly [LLM_ERROR_MARKER] = true;

  constructor(init: LlmErrorInit) {
    super(init.message);
    this.kind = init.kind;
    this.provider = init.provider;
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers ?? {};
    this.retryAfterMs = init.retryAfterMs;
    this.classification = init.classification;
  }

  /** Worth retrying as is: the classifier's verdict, else what the status or kind implies. */
  get isRetryable(): boolean {
    if (this.kind === 'aborted' || this.kind === 'configuration' || this.kind === 'offline') return false;
    if (this.classification) return this.classification.retryable;
    if (this.status !== undefined)
      return this.status === 408 || this.status === 409 || this.status === 429 || this.status >= 500;
    return this.kind !== 'invalid-response';
  }
}

export function isLlmError(value: unknown): value is LlmError {
  if (value instanceof LlmError) return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<PropertyKey, unknown>)[LLM_ERROR_MARKER] === true &&
    (value as { name?: unknown }).name === 'LlmError'
  );
}

/** Replaces every occurrence of the secret, so a proxy that echoes headers cannot leak it into an error. */
export function redactSecret(text: string, secret: string): string {
  return secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}
