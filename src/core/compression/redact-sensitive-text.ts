/**
 * Secret redaction applied to everything that crosses a compaction boundary (Hermes
 * `agent/redact.py`, used by the compressor in strict mode): known API-key shapes, secret
 * `KEY=value` assignments, JSON secret fields, Authorization headers, bot tokens, private-key
 * blocks, database and URL credentials, JWTs. Long tokens keep their first 6 and last 4
 * characters so a reader can still tell keys apart; short ones become `***`, as in Hermes.
 */
import { isRegexWhitespace } from '../shared/is-regex-whitespace.ts';
import { couldContainSecret, possibleSecretPatterns, SECRET_PATTERN } from './could-contain-secret.ts';

/** Vendor key prefixes; every pattern starts with a literal so the pre-screen below stays exact. */
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
/**
 * A secret `NAME=value` assignment, tried sticky where a name starts (`replaceEnvAssignments`).
 * The leading lookarounds say a match starts a run of name characters; the lookahead also
 * spares the engine the lookbehind where no name character stands.
 */
const ENV_ASSIGN_AT_RE = new RegExp(
  `(?=[A-Z0-9_])(?<![A-Z0-9_])([A-Z0-9_]{0,50}${SECRET_ENV_NAMES}[A-Z0-9_]{0,50})\\s*=\\s*(['"]?)(\\S+)\\2`,
  'y',
);
/** The `=` of every assignment match (a necessary condition: a secret name, then `\s*=`). */
const ENV_EQUALS_RE = new RegExp(`=(?<=${SECRET_ENV_NAMES}[A-Z0-9_]{0,50}\\s*=)`, 'g');

const isNameCharacter = (code: number): boolean =>
  (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f;

/**
 * What a global replace of the assignment pattern gives, found from the `=` of each assignment
 * instead of trying the pattern at every start of a run of name characters (~4 ns a character
 * on long tool output; this, a fraction of that). Exact: a match's name is the whole run of `[A-Z0-9_]` before its
 * `\s*=` (it starts a run, and a name character after it could be neither `\s` nor `=`), so
 * each `=` fixes the one place a match could start, and the pattern is tried there, sticky.
 * Matches come in order of their `=`; one starting inside the match before is no match, as the
 * global replace would resume after it.
 *
 * The `=` are found by a scan of their own (`ENV_EQUALS_RE`), or given: `screened`, what the
 * secret screen listed (`screenTexts`), in order. Any list holding every `=` a match can end at
 * gives the same result, since the pattern itself decides at each; the screen's holds more
 * (its condition takes any name word ending in KEY, not only API_KEY), and those fail here.
 */
function replaceEnvAssignments(
  text: string,
  replace: (name: string, quote: string, value: string) => string,
  screened?: readonly number[],
): string {
  let result = '';
  let copied = 0;
  // The next of the `=` listed in `screened` to try.
  let listed = 0;
  ENV_EQUALS_RE.lastIndex = 0;
  for (;;) {
    let equals: number;
    if (screened) {
      while (listed < screened.length && screened[listed]! < copied) listed++;
      if (listed === screened.length) break;
      equals = screened[listed++]!;
    } else {
      const found = ENV_EQUALS_RE.exec(text);
      if (found === null) break;
      equals = found.index;
    }
    let start = equals - 1;
    while (start >= 0 && isRegexWhitespace(text.charCodeAt(start))) start--;
    while (start >= 0 && isNameCharacter(text.charCodeAt(start))) start--;
    start++;
    if (start < copied) continue;
    ENV_ASSIGN_AT_RE.lastIndex = start;
    const match = ENV_ASSIGN_AT_RE.exec(text);
    if (match === null) continue;
    result += text.slice(copied, start) + replace(match[1]!, match[2]!, match[3]!);
    copied = start + match[0].length;
    if (ENV_EQUALS_RE.lastIndex < copied) ENV_EQUALS_RE.lastIndex = copied;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

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

export interface RedactOptions {
  /**
   * Also mask URL userinfo passwords, bare URL tokens and credential query parameters.
   * Compaction uses this strict mode: OAuth codes never need to survive a summary.
   */
  readonly redactUrlCredentials?: boolean;
}

/** Hermes `_mask_token`: short tokens vanish, long ones keep a recognisable head and tail. */
export function maskToken(token: string): string {
  if (token.length < 18) return '***';
  return `${token.slice(0, 6)}...${token.slice(-4)}`;
}

const ALREADY_MASKED_RE = /^(?:\*\*\*|.{6}\.\.\..{4})$/;

/** Masks a value unless an earlier pass already did (masking twice would erase the kept head). */
const maskOnce = (value: string): string => (ALREADY_MASKED_RE.test(value) ? value : maskToken(value));

/** One redaction pass: the pattern it needs (`SECRET_PATTERN`) and what it does. */
interface RedactionPass {
  readonly pattern: number;
  readonly strictOnly: boolean;
  /** `assignments`: where the screen found the `=` of secret assignments in `text`, when it did. */
  readonly apply: (text: string, assignments?: readonly number[]) => string;
}

/** Every pass, in the order Hermes applies them. */
const PASSES: readonly RedactionPass[] = [
  {
    pattern: SECRET_PATTERN.privateKey,
    strictOnly: false,
    apply: (text) => text.replace(PRIVATE_KEY_RE, '[REDACTED PRIVATE KEY]'),
  },
  {
    pattern: SECRET_PATTERN.prefix,
    strictOnly: false,
    apply: (text) => text.replace(PREFIX_RE, (token) => maskToken(token)),
  },
  {
    pattern: SECRET_PATTERN.envAssignment,
    strictOnly: false,
    apply: (text, assignments) =>
      replaceEnvAssignments(
        text,
        (name, quote, value) => `${name}=${quote}${maskOnce(value)}${quote}`,
        assignments,
      ),
  },
  {
    pattern: SECRET_PATTERN.jsonField,
    strictOnly: false,
    apply: (text) =>
      text.replace(JSON_FIELD_RE, (_match, key: string, value: string) => `${key}: "${maskOnce(value)}"`),
  },
  {
    pattern: SECRET_PATTERN.authHeader,
    strictOnly: false,
    apply: (text) =>
      text.replace(
        AUTH_HEADER_RE,
        (_match, header: string, scheme: string | undefined, value: string) =>
          `${header}${scheme ?? ''}${maskOnce(value)}`,
      ),
  },
  {
    pattern: SECRET_PATTERN.bearer,
    strictOnly: false,
    apply: (text) =>
      text.replace(BEARER_RE, (_match, scheme: string, value: string) => `${scheme}${maskOnce(value)}`),
  },
  {
    pattern: SECRET_PATTERN.telegram,
    strictOnly: false,
    apply: (text) =>
      text.replace(
        TELEGRAM_RE,
        (_match, bot: string | undefined, digits: string) => `${bot ?? ''}${digits}:***`,
      ),
  },
  {
    pattern: SECRET_PATTERN.dbConnection,
    strictOnly: false,
    apply: (text) => text.replace(DB_CONNECTION_RE, '$1***$3'),
  },
  {
    pattern: SECRET_PATTERN.jwt,
    strictOnly: false,
    apply: (text) => text.replace(JWT_RE, (token) => maskOnce(token)),
  },
  {
    pattern: SECRET_PATTERN.urlAt,
    strictOnly: true,
    apply: (text) => text.replace(URL_USERINFO_RE, '$1***$3').replace(URL_BARE_TOKEN_RE, '$1***$3'),
  },
  {
    pattern: SECRET_PATTERN.query,
    strictOnly: true,
    apply: (text) => text.replace(SENSITIVE_QUERY_RE, '$1***'),
  },
];

const ALL_PATTERNS = PASSES.reduce((all, pass) => all | pass.pattern, 0);
const LENIENT_PATTERNS = PASSES.reduce((all, pass) => (pass.strictOnly ? all : all | pass.pattern), 0);

/**
 * Replaces secrets in `text` with masked forms; text without secrets is returned as is.
 *
 * One native regex scan first says whether any pattern could match at all
 * (`couldContainSecret`); text none can match is returned at once. Otherwise the same scan,
 * telling its anchors apart (`possibleSecretPatterns`), says which could, and only those passes
 * run. A pass that changed the text has the rest re-judged on the new text. The result is the
 * same as running every pass in Hermes' order.
 */
export function redactSensitiveText(text: string, options: RedactOptions = {}): string {
  if (!text || !couldContainSecret(text)) return text;
  return redactScreenedText(text, possibleSecretPatterns(text), options);
}

/**
 * `redactSensitiveText` of a text already screened: `patterns` is what `possibleSecretPatterns`
 * gives for it (`screenTexts` gives it for many texts at once), so it is not scanned again
 * before the first pass; `assignments`, where the screen found the `=` of secret assignments
 * (`screenTexts`), spares the assignment pass its own scan while no pass before it has changed
 * the text.
 */
export function redactScreenedText(
  text: string,
  patterns: number,
  options: RedactOptions = {},
  assignments?: readonly number[],
): string {
  const enabled = options.redactUrlCredentials ? ALL_PATTERNS : LENIENT_PATTERNS;
  let possible = patterns & enabled;
  if (possible === 0) return text;
  let result = text;
  for (const pass of PASSES) {
    if ((possible & pass.pattern) === 0) continue;
    const next = pass.apply(result, result === text ? assignments : undefined);
    if (next !== result) {
      result = next;
      possible = possibleSecretPatterns(result) & enabled;
    }
  }
  return result;
}

/** The strict mode every compaction boundary uses (Hermes `_redact_compaction_text`). */
export const COMPACTION_REDACTION: RedactOptions = { redactUrlCredentials: true };

export const redactCompactionText = (text: string): string => redactSensitiveText(text, COMPACTION_REDACTION);
