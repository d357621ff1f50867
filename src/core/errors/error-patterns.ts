/**
 * Lowercase substrings Hermes matches against an error's text (`agent/error_classifier.py`,
 * hermes-reference §7.1). Lists whose 2026-04 form was shorter come in two versions.
 */
export const BILLING_PATTERNS = [
  'insufficient credits',
  'insufficient_quota',
  'insufficient balance',
  'credit balance',
  'credits exhausted',
  'credits have been exhausted',
  'no usable credits',
  'top up your credits',
  'payment required',
  'billing hard limit',
  'exceeded your current quota',
  'account is deactivated',
  'plan does not include',
  'out of funds',
  'run out of funds',
  'balance_depleted',
  'model_not_supported_on_free_tier',
  'not available on the free tier',
] as const;

export const BILLING_PATTERNS_2026_04 = [
  'insufficient credits',
  'insufficient_quota',
  'credit balance',
  'credits have been exhausted',
  'top up your credits',
  'payment required',
  'billing hard limit',
  'exceeded your current quota',
  'account is deactivated',
  'plan does not include',
] as const;

/** Structured error codes that mean billing or quota exhaustion (2026-07 added the credit codes). */
export const BILLING_ERROR_CODES = [
  'insufficient_quota',
  'billing_not_active',
  'payment_required',
  'insufficient_credits',
  'no_usable_credits',
  'balance_depleted',
  'model_not_supported_on_free_tier',
] as const;
export const BILLING_ERROR_CODES_2026_04 = [
  'insufficient_quota',
  'billing_not_active',
  'payment_required',
] as const;

export const RATE_LIMIT_PATTERNS = [
  'rate limit',
  'rate_limit',
  'too many requests',
  'throttled',
  'requests per minute',
  'tokens per minute',
  'requests per day',
  'try again in',
  'please retry after',
  'resource_exhausted',
  'rate increased too quickly',
  'throttlingexception',
  'too many concurrent requests',
  'servicequotaexceededexception',
] as const;

/** Provider-wide overload (Z.AI reuses 429 for it): back off, never rotate the key. */
export const OVERLOADED_PATTERNS = [
  'overloaded',
  'temporarily overloaded',
  'service is temporarily overloaded',
  'service may be temporarily overloaded',
  'server is overloaded',
  'server overloaded',
  'service overloaded',
  'service is overloaded',
  'upstream overloaded',
  'currently overloaded',
  'at capacity',
  'over capacity',
] as const;

export const USAGE_LIMIT_PATTERNS = ['usage limit', 'quota', 'limit exceeded', 'key limit exceeded'] as const;

export const USAGE_LIMIT_TRANSIENT_SIGNALS = [
  'try again',
  'retry',
  'resets at',
  'reset in',
  'wait',
  'requests remaining',
  'periodic',
  'window',
] as const;

export const PAYLOAD_TOO_LARGE_PATTERNS = [
  'request entity too large',
  'payload too large',
  'error code: 413',
] as const;

export const IMAGE_TOO_LARGE_PATTERNS = [
  'image exceeds',
  'image too large',
  'image_too_large',
  'image size exceeds',
  'image dimensions exceed',
  'dimensions exceed max allowed size',
  'max allowed size: 8000',
] as const;

export const MULTIMODAL_TOOL_CONTENT_PATTERNS = [
  'text is not set',
  'tool message content must be a string',
  'tool content must be a string',
  'tool message must be a string',
  'expected string, got list',
  'expected string, got array',
  'tool_call.content must be string',
] as const;

const CONTEXT_OVERFLOW_2026_04 = [
  'context length',
  'context size',
  'maximum context',
  'token limit',
  'too many tokens',
  'reduce the length',
  'exceeds the limit',
  'context window',
  'prompt is too long',
  'prompt exceeds max length',
  'max_tokens',
  'maximum number of tokens',
  'exceeds the max_model_len',
  'max_model_len',
  'prompt length',
  'input is too long',
  'maximum model length',
  'context length exceeded',
  'truncating input',
  'slot context',
  'n_ctx_slot',
  '超过最大长度',
  '上下文长度',
  'max input token',
  'input token',
  'exceeds the maximum number of input tokens',
] as const;

export const CONTEXT_OVERFLOW_PATTERNS_2026_04: readonly string[] = CONTEXT_OVERFLOW_2026_04;

/** 2026-07 adds Z.AI/Zhipu's English overflow wording (error code 1210). */
export const CONTEXT_OVERFLOW_PATTERNS: readonly string[] = [
  ...CONTEXT_OVERFLOW_2026_04,
  'tokens in request more than max tokens allowed',
];

export const MODEL_NOT_FOUND_PATTERNS = [
  'is not a valid model',
  'invalid model',
  'model not found',
  'model_not_found',
  'does not exist',
  'no such model',
  'unknown model',
  'unsupported model',
] as const;

/** Deterministic request rejections that some gateways return as 5xx. */
export const REQUEST_VALIDATION_PATTERNS = [
  'unknown parameter',
  'unsupported parameter',
  'unrecognized request argument',
  'invalid_request_error',
  'unknown_parameter',
  'unsupported_parameter',
] as const;

/** OpenRouter account-level privacy guardrail: the model exists, no endpoint is allowed. */
export const PROVIDER_POLICY_BLOCKED_PATTERNS = [
  'no endpoints available matching your guardrail',
  'no endpoints available matching your data policy',
  'no endpoints found matching your data policy',
] as const;

/** Per-prompt safety refusals: deterministic for the unchanged request. */
export const CONTENT_POLICY_BLOCKED_PATTERNS = [
  'flagged for possible cybersecurity risk',
  'trusted access for cyber',
  'violates our usage policies',
  "violates openai's usage policies",
  'your request was flagged by',
  'prompt was flagged by our safety',
  'responses cannot be generated due to safety',
  'content_filter',
  'responsibleaipolicyviolation',
  'new_sensitive',
] as const;

export const AUTH_PATTERNS = [
  'invalid api key',
  'invalid_api_key',
  'authentication',
  'unauthorized',
  'forbidden',
  'invalid token',
  'token expired',
  'token revoked',
  'access denied',
] as const;

/** Empty-response advisories mention "max_tokens" but are not overflow (checked first). */
export const EMPTY_PROVIDER_RESPONSE_PATTERNS = [
  'returned an empty response',
  'empty response despite retries',
  'provider returned an empty response',
  'model returning empty responses',
  'empty response stream',
] as const;

export const TIMEOUT_MESSAGE_PATTERNS = [
  'timed out',
  'turn timed out',
  'request timed out',
  'deadline exceeded',
  'operation timed out',
  'upstream timed out',
] as const;

export const TRANSPORT_ERROR_TYPES: ReadonlySet<string> = new Set([
  'ReadTimeout',
  'ConnectTimeout',
  'PoolTimeout',
  'ConnectError',
  'RemoteProtocolError',
  'ConnectionError',
  'ConnectionResetError',
  'ConnectionAbortedError',
  'BrokenPipeError',
  'TimeoutError',
  'ReadError',
  'ServerDisconnectedError',
  'SSLError',
  'SSLZeroReturnError',
  'SSLWantReadError',
  'SSLWantWriteError',
  'SSLEOFError',
  'SSLSyscallError',
  'APIConnectionError',
  'APITimeoutError',
]);

/** A dropped connection: transient, or an oversized request the gateway hung up on. */
export const SERVER_DISCONNECT_PATTERNS = [
  'server disconnected',
  'peer closed connection',
  'connection reset by peer',
  'connection was closed',
  'network connection lost',
  'unexpected eof',
  'incomplete chunked read',
] as const;

/** Certificate problems are deterministic for the host: fail fast (checked before SSL alerts). */
export const SSL_CERT_VERIFY_PATTERNS = [
  'certificate verify failed',
  'certificate_verify_failed',
  'unable to get local issuer certificate',
  'self-signed certificate',
  'self signed certificate',
  'certificate has expired',
  'hostname mismatch, certificate is not valid',
] as const;

export const SSL_TRANSIENT_PATTERNS = [
  'bad record mac',
  'ssl alert',
  'tls alert',
  'ssl handshake failure',
  'tlsv1 alert',
  'sslv3 alert',
  'bad_record_mac',
  'ssl_alert',
  'tls_alert',
  'tls_alert_internal_error',
  '[ssl:',
] as const;

export const containsAny = (text: string, patterns: readonly string[]): boolean =>
  patterns.some((pattern) => text.includes(pattern));
