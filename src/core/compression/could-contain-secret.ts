/**
 * Whether any redaction pattern (`redact-sensitive-text.ts`) could match a text, in one native
 * regex scan. Every alternative starts with one of the few characters each pattern must contain
 * (`_`, `-`, `=`, `:`, `A`, `S`, `B`, `J`) and checks the context of that character with
 * lookbehinds, so the regex engine skips every other position with its first-character table
 * and never calls back into JavaScript. Measured on the bench session (issue 17): 22.8 MB of
 * message text in ~30 ms on a first call, 4× faster than the `indexOf` anchor scans; 13,700
 * short texts in ~6 ms, 4× faster than the old case-insensitive pre-screen.
 *
 * Each alternative is a necessary condition of a pattern (a superset: a match only means "look
 * closer"), written from the patterns themselves:
 * - vendor keys: a stem right before `_` or `-` with no key character before the stem, the
 *   letter-only `AIza`, `AKIA`, `gAAAA`, and `SG.`;
 * - private-key blocks: `PRIVATE KEY-`;
 * - secret `NAME=value` assignments: a secret name word, name characters and `\s*=`;
 * - `?token=` query parameters, JSON secret fields (`"token"\s*:`), `Authorization:`, bot
 *   tokens (`\d{8}:`), URL and database credentials (`://`, then an `@` before any space);
 * - `Bearer` and JWTs (`eyJ`).
 * The case-insensitive patterns (the `i` flag without `u`, which folds ASCII letters only) are
 * matched by spelling each letter as `[xX]`, so the one regex needs no flag.
 */

/** `token` → `[tT][oO][kK][eE][nN]`: ASCII case folding, exactly what `/i` without `u` does. */
const foldCase = (word: string): string =>
  word.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);

/** No key character (`[A-Za-z0-9_-]`) right before: where a vendor key may start. */
const KEY_START = '(?<![A-Za-z0-9_-])';
const UNDERSCORE_STEMS = '(?:gh[pousr]|github|fal|bb|sk|rk|hf|r8|npm|do[po]|am|exa|gsk|syt)';
const DASH_STEMS = '(?:sk|xapp|pplx|fc|pypi|tvly|xai|glpat|xox[baprs])';
const ENV_NAME_WORDS = '(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)';
const JSON_FIELD_WORDS = [
  'api_?key',
  'token',
  'secret',
  'password',
  'access_token',
  'refresh_token',
  'auth_token',
  'bearer',
  'secret_value',
  'raw_secret',
  'secret_input',
  'key_material',
];
const QUERY_WORDS = [
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'api_key',
  'apikey',
  'client_secret',
  'password',
  'auth',
  'jwt',
  'session',
  'secret',
  'key',
  'code',
  'signature',
  'x-amz-signature',
  'x-goog-signature',
  'sig',
];
const anyFolded = (words: readonly string[]): string => `(?:${words.map(foldCase).join('|')})`;

const SECRET_SCREEN_RE = new RegExp(
  [
    `_(?<=${KEY_START}${UNDERSCORE_STEMS}_)`,
    `-(?<=${KEY_START}${DASH_STEMS}-|PRIVATE KEY-)`,
    `A(?:Iza|KIA)(?<=${KEY_START}A(?:Iza|KIA))`,
    `AAAA(?<=${KEY_START}gAAAA)`,
    `SG\\.(?<=${KEY_START}SG\\.)`,
    `=(?<=${ENV_NAME_WORDS}[A-Z0-9_]{0,50}\\s*=|[?&]${anyFolded(QUERY_WORDS)}=)`,
    `:(?:(?<="${anyFolded(JSON_FIELD_WORDS)}"\\s*:|${foldCase('authorization')}:|\\d{8}:)|\\/\\/[^\\s@]*@)`,
    'Bearer',
    'J(?<=eyJ)',
  ].join('|'),
);

/** False when no redaction pattern can match anywhere in `text`; true means "run the passes". */
export const couldContainSecret = (text: string): boolean => SECRET_SCREEN_RE.test(text);
