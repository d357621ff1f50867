/**
 * How a failed summary call is classified (hermes-reference §5.7), which decides the cooldown,
 * whether to retry on the main model, and whether compress() aborts instead of inserting a
 * fallback. Classification reads only the error's name, message and HTTP status, so it also
 * works on errors that crossed the worker boundary.
 */
import { classifyApiError } from '../errors/classify-api-error.ts';
import type { Preset } from '../presets/preset.ts';
import { pythonLength, pythonSlice } from '../tokens/python-length.ts';
import { pythonRStrip, pythonStrip } from './python-text.ts';
import type { SummarizerErrorLike } from './summarizer.ts';

export interface SummaryFailure {
  /** The error text as recorded and shown (cut to 220 characters). */
  readonly message: string;
  readonly status: number | null;
  /** "No LLM provider configured" (2026-04: any RuntimeError) → the long 600 s cooldown. */
  readonly noProvider: boolean;
  readonly modelNotFound: boolean;
  readonly timeout: boolean;
  readonly jsonDecode: boolean;
  /** A dropped connection or a stream closed early; 2026-07 aborts instead of falling back. */
  readonly streamClosed: boolean;
  /** Auth, permission or exhausted quota; 2026-07 aborts instead of falling back. */
  readonly accessOrQuota: boolean;
}

const ERROR_TEXT_MAX_CHARS = 220;
const MISSING_CREDENTIAL_MARKERS = ['no api key was found', 'no api key found'];
const QUOTA_MARKERS = [
  'insufficient_quota',
  'quota exceeded',
  'quota_exceeded',
  'out of funds',
  'out of credits',
  'out of credit',
  'out of extra usage',
];
const CONNECTION_MARKERS = [
  'incomplete chunked read',
  'peer closed connection',
  'response ended prematurely',
  'unexpected eof',
  'connection error',
  'connection reset',
  'connection refused',
  'connection aborted',
  'remote end closed connection',
  'server disconnected',
  'network error',
  'networkerror',
  'failed to fetch',
  'fetch failed',
  'socket hang up',
  'econnreset',
  'econnrefused',
  'timed out',
];
const CONNECTION_ERROR_NAMES = new Set([
  'APIConnectionError',
  'APIConnectionTimeoutError',
  'ConnectionError',
]);

const includesAny = (text: string, markers: readonly string[]): boolean =>
  markers.some((m) => text.includes(m));

/** The status of an error object, whichever field carries it. */
function statusOf(error: SummarizerErrorLike): number | null {
  const status = error.status ?? error.statusCode;
  return typeof status === 'number' && Number.isFinite(status) ? status : null;
}

/** Hermes `str(e).strip() or e.__class__.__name__`, cut to 217 characters plus `...`. */
export function summaryErrorText(error: SummarizerErrorLike): string {
  const text = pythonStrip(typeof error.message === 'string' ? error.message : '') || error.name || 'Error';
  if (pythonLength(text) <= ERROR_TEXT_MAX_CHARS) return text;
  return pythonRStrip(pythonSlice(text, 0, ERROR_TEXT_MAX_CHARS - 3)) + '...';
}

/** Reads an unknown thrown value as an error-like object. */
export function toSummarizerError(thrown: unknown): SummarizerErrorLike {
  if (thrown && typeof thrown === 'object') return thrown;
  return { name: 'Error', message: String(thrown) };
}

export function classifySummaryFailure(thrown: unknown, preset: Preset): SummaryFailure {
  const error = toSummarizerError(thrown);
  const status = statusOf(error);
  const lower = (typeof error.message === 'string' ? error.message : '').toLowerCase();
  const name = error.name ?? '';
  // 2026-04 caught every RuntimeError as "no provider" (call_llm raised one for that case).
  const legacy = preset.summary.failureHandling === 'legacy';
  const noProvider = lower.includes('no llm provider configured') || (legacy && name === 'RuntimeError');
  // The same classifier as every provider error decides auth; rate limits never count here.
  const reason = classifyApiError(
    {
      message: typeof error.message === 'string' ? error.message : '',
      statusCode: status,
      body: null,
      errorType: name || null,
    },
    {},
    preset,
  ).reason;
  const accessOrQuota =
    reason !== 'rate_limit' &&
    (reason === 'auth' ||
      reason === 'auth_permanent' ||
      includesAny(lower, MISSING_CREDENTIAL_MARKERS) ||
      status === 401 ||
      status === 402 ||
      status === 403 ||
      includesAny(lower, QUOTA_MARKERS));
  return {
    message: summaryErrorText(error),
    status,
    noProvider,
    modelNotFound:
      status === 404 ||
      status === 503 ||
      includesAny(lower, ['model_not_found', 'does not exist', 'no available channel']),
    timeout:
      status === 408 ||
      status === 429 ||
      status === 502 ||
      status === 504 ||
      includesAny(lower, ['timeout', 'timed out']),
    jsonDecode: name === 'JSONDecodeError' || name === 'SyntaxError' || lower.includes('expecting value'),
    streamClosed: CONNECTION_ERROR_NAMES.has(name) || includesAny(lower, CONNECTION_MARKERS),
    accessOrQuota,
  };
}

/** Timeout-class cooldowns climb with consecutive timeouts; any success resets the ladder. */
export const TIMEOUT_COOLDOWN_LADDER_SECONDS = [60, 300, 900] as const;
export const NO_PROVIDER_COOLDOWN_SECONDS = 600;
export const TRANSIENT_COOLDOWN_SECONDS = 60;
export const SHORT_COOLDOWN_SECONDS = 30;

/**
 * The cooldown a failure earns. 2026-07: timeout ladder, 30 s for JSON-decode or a closed
 * stream, else 60 s. 2026-04: 60 s (the 600 s no-provider case is decided by the caller).
 */
export function failureCooldownSeconds(
  failure: SummaryFailure,
  consecutiveTimeouts: number,
  preset: Preset,
): number {
  if (failure.noProvider) return NO_PROVIDER_COOLDOWN_SECONDS;
  if (preset.summary.failureHandling === 'legacy') return TRANSIENT_COOLDOWN_SECONDS;
  if (failure.timeout) {
    const rung = Math.min(Math.max(consecutiveTimeouts, 1), TIMEOUT_COOLDOWN_LADDER_SECONDS.length) - 1;
    return TIMEOUT_COOLDOWN_LADDER_SECONDS[rung]!;
  }
  if (failure.jsonDecode || failure.streamClosed) return SHORT_COOLDOWN_SECONDS;
  return TRANSIENT_COOLDOWN_SECONDS;
}
