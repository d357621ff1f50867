/**
 * The secret redaction written plainly: every pattern, in Hermes' order, on every text. Kept only
 * as the oracle of the differential tests (`tests/core/compression/redact-sensitive-text.differential.test.ts`,
 * `could-contain-secret.test.ts`); the app uses `src/core/compression/redact-sensitive-text.ts`,
 * which skips the passes that cannot match.
 */
/** Vendor key prefixes. */
const PREFIX_PATTERNS = [
  'sk-[A-Za-z0-9_-](?:\\.?[A-Za-z0-9_-]){9,}',
  'ghp_[A-Za-z0-9]{10,}',
  'github_pat_[A-Za-z0-9_]{10,}',
  'gho_[A-Za-z0-9]{10,}',
  'ghu_[A-Za-z0-9]{10,}',
  'ghs_[A-Za-z0-9]{10,}',
  'ghr_[A-Za-z0-9]{10,}',
  'xapp-\\d+-[A-Za-z0-9-]{10,}',
  'xox[baprs]-[A-Za-z0-9-]{10,}',
  'AIza[A-Za-z0-9_-]{30,}',
  'pplx-[A-Za-z0-9]{10,}',
  'fal_[A-Za-z0-9_-]{10,}',
  'fc-[A-Za-z0-9]{10,}',
  'bb_live_[A-Za-z0-9_-]{10,}',
  'gAAAA[A-Za-z0-9_=-]{20,}',
  'AKIA[A-Z0-9]{16}',
  'sk_live_[A-Za-z0-9]{10,}',
  'sk_test_[A-Za-z0-9]{10,}',
  'rk_live_[A-Za-z0-9]{10,}',
  'SG\\.[A-Za-z0-9_-]{10,}',
  'hf_[A-Za-z0-9]{10,}',
  'r8_[A-Za-z0-9]{10,}',
  'npm_[A-Za-z0-9]{10,}',
  'pypi-[A-Za-z0-9_-]{10,}',
  'dop_v1_[A-Za-z0-9]{10,}',
  'doo_v1_[A-Za-z0-9]{10,}',
  'am_(?:org_)?[A-Za-z0-9]{20,}',
  'sk_[A-Za-z0-9_]{10,}',
  'tvly-[A-Za-z0-9]{10,}',
  'exa_[A-Za-z0-9]{10,}',
  'gsk_[A-Za-z0-9]{10,}',
  'syt_[A-Za-z0-9]{10,}',
  'xai-[A-Za-z0-9]{30,}',
  'glpat-[A-Za-z0-9_\\-]{10,}',
];
const PREFIX_RE = new RegExp(`(?<![A-Za-z0-9_-])(?:${PREFIX_PATTERNS.join('|')})(?![A-Za-z0-9_-])`, 'g');

const SECRET_ENV_NAMES = '(?:API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)';
const ENV_ASSIGN_RE = new RegExp(
  `(?<![A-Z0-9_])([A-Z0-9_]{0,50}${SECRET_ENV_NAMES}[A-Z0-9_]{0,50})\\s*=\\s*(['"]?)(\\S+)\\2`,
  'g',
);
const JSON_FIELD_RE =
  /("(?:api_?key|token|secret|password|access_token|refresh_token|auth_token|bearer|secret_value|raw_secret|secret_input|key_material)")\s*:\s*"([^"]+)"/gi;
const AUTH_HEADER_RE = /((?:Proxy-)?Authorization:\s*)([A-Za-z][\w.+-]*\s+)?([^\s"']+)/gi;
const BEARER_RE = /(\bBearer\s+)([A-Za-z0-9._~+/=-]{8,})/g;
const TELEGRAM_RE = /(?<!\d)(bot)?(\d{8,}):([-A-Za-z0-9_]{30,})/g;
const PRIVATE_KEY_RE = /-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?-----END[A-Z ]*PRIVATE KEY-----/g;
const DB_CONNECTION_RE =
  /((?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|amqp):\/\/[^:\s]+:)([^@\s]+)(@)/gi;
const JWT_RE = /eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_=-]{4,}){0,2}/g;
const URL_USERINFO_RE = /((?:https?|wss?|ftp|ftps|sftp|ssh|git):\/\/[^\s:/?#@]+:)([^\s/?#@]+)(@)/gi;
const URL_BARE_TOKEN_RE = /((?:https?|wss?|git|ssh|ftp|ftps|sftp):\/\/)([^\s:@/]{8,})(@[^\s]+)/gi;
const SENSITIVE_QUERY_RE =
  /([?&](?:access_token|refresh_token|id_token|token|api_key|apikey|client_secret|password|auth|jwt|session|secret|key|code|signature|x-amz-signature|x-goog-signature|sig)=)([^&#\s]+)/gi;

interface RedactOptions {
  /**
   * Also mask URL userinfo passwords, bare URL tokens and credential query parameters.
   * Compaction uses this strict mode: OAuth codes never need to survive a summary.
   */
  readonly redactUrlCredentials?: boolean;
}

/** Hermes `_mask_token`: short tokens vanish, long ones keep a recognisable head and tail. */
function maskToken(token: string): string {
  if (token.length < 18) return '***';
  return `${token.slice(0, 6)}...${token.slice(-4)}`;
}

const ALREADY_MASKED_RE = /^(?:\*\*\*|.{6}\.\.\..{4})$/;

/** Masks a value unless an earlier pass already did (masking twice would erase the kept head). */
const maskOnce = (value: string): string => (ALREADY_MASKED_RE.test(value) ? value : maskToken(value));

/** Replaces secrets in `text` with masked forms; text without secrets is returned as is. */
export function referenceRedactSensitiveText(text: string, options: RedactOptions = {}): string {
  if (!text) return text;
  let result = text.replace(PRIVATE_KEY_RE, '[REDACTED PRIVATE KEY]');
  result = result.replace(PREFIX_RE, (token) => maskToken(token));
  result = result.replace(
    ENV_ASSIGN_RE,
    (_match, name: string, quote: string, value: string) => `${name}=${quote}${maskOnce(value)}${quote}`,
  );
  result = result.replace(
    JSON_FIELD_RE,
    (_match, key: string, value: string) => `${key}: "${maskOnce(value)}"`,
  );
  result = result.replace(
    AUTH_HEADER_RE,
    (_match, header: string, scheme: string | undefined, value: string) =>
      `${header}${scheme ?? ''}${maskOnce(value)}`,
  );
  result = result.replace(
    BEARER_RE,
    (_match, scheme: string, value: string) => `${scheme}${maskOnce(value)}`,
  );
  result = result.replace(
    TELEGRAM_RE,
    (_match, bot: string | undefined, digits: string) => `${bot ?? ''}${digits}:***`,
  );
  result = result.replace(DB_CONNECTION_RE, '$1***$3');
  result = result.replace(JWT_RE, (token) => maskOnce(token));
  if (options.redactUrlCredentials) {
    result = result.replace(URL_USERINFO_RE, '$1***$3');
    result = result.replace(URL_BARE_TOKEN_RE, '$1***$3');
    result = result.replace(SENSITIVE_QUERY_RE, '$1***');
  }
  return result;
}

/** The strict mode every compaction boundary uses (Hermes `_redact_compaction_text`). */
export const referenceRedactCompactionText = (text: string): string =>
  referenceRedactSensitiveText(text, { redactUrlCredentials: true });
