/**
 * Which of the redaction patterns (`redact-sensitive-text.ts`) could match a text at all,
 * found with native `indexOf` scans for the few characters every match must contain (`:`, `=`,
 * `_`, `-`, `A`, `J`) and a look around each hit, instead of a dozen regex passes over the whole
 * text. Each bit is a necessary condition of its pattern: when it is clear the pattern cannot
 * match, so skipping that pass changes nothing. A set bit only means "run the pattern".
 *
 * Case-insensitive patterns (the `i` flag without `u`) fold only ASCII letters onto ASCII
 * letters, so comparing ASCII-lowercased text here is exact.
 */

export const SECRET_PATTERN = {
  privateKey: 1 << 0,
  prefix: 1 << 1,
  envAssignment: 1 << 2,
  jsonField: 1 << 3,
  authHeader: 1 << 4,
  bearer: 1 << 5,
  telegram: 1 << 6,
  dbConnection: 1 << 7,
  jwt: 1 << 8,
  /** URL userinfo passwords and bare URL tokens: a URL scheme, `://` and an `@` after it. */
  urlAt: 1 << 9,
  query: 1 << 10,
} as const;

/**
 * A word of up to six ASCII characters as one number, last character first (`g h p` →
 * `p·256² + h·256 + g`), so the scan can look a word up while walking back over it, without
 * building a string.
 */
function packReversed(word: string): number {
  let packed = 0;
  for (let index = word.length - 1; index >= 0; index--) packed = packed * 256 + word.charCodeAt(index);
  return packed;
}
const packedSet = (words: readonly string[]): ReadonlySet<number> => new Set(words.map(packReversed));

/** Vendor key stems that end where the key's `_` or `-` stands (`ghp_…`, `sk-…`, `xoxb-…`). */
const UNDERSCORE_STEMS = packedSet([
  'ghp',
  'gho',
  'ghu',
  'ghs',
  'ghr',
  'github',
  'fal',
  'bb',
  'sk',
  'rk',
  'hf',
  'r8',
  'npm',
  'dop',
  'doo',
  'am',
  'exa',
  'gsk',
  'syt',
]);
const DASH_STEMS = packedSet([
  'sk',
  'xapp',
  'pplx',
  'fc',
  'pypi',
  'tvly',
  'xai',
  'glpat',
  'xoxb',
  'xoxa',
  'xoxp',
  'xoxr',
  'xoxs',
]);
/** The longest stem: a longer word before the `_` or `-` is no vendor prefix. */
const LONGEST_STEM = 6;
/** The uppercase names a secret `KEY=value` assignment must contain. */
const ENV_NAME_WORDS = ['KEY', 'TOKEN', 'SECRET', 'PASSW', 'CREDENTIAL', 'AUTH'] as const;
const JSON_FIELD_WORDS: ReadonlySet<string> = new Set([
  'api_key',
  'apikey',
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
]);
/** The longest JSON secret field name above. */
const LONGEST_JSON_FIELD = 13;
/** Length and lowercase last letter of each field name: most JSON keys fail this before any string is built. */
const JSON_FIELD_SHAPES: ReadonlySet<number> = new Set(
  [...JSON_FIELD_WORDS].map((word) => word.length * 128 + word.charCodeAt(word.length - 1)),
);
const QUERY_WORDS: ReadonlySet<string> = new Set([
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
]);
/** The longest query parameter name above. */
const LONGEST_QUERY_WORD = 16;
const DB_SCHEMES = ['postgres', 'postgresql', 'mysql', 'mongodb', 'mongodb+srv', 'redis', 'amqp'] as const;
const URL_SCHEMES = ['http', 'https', 'ws', 'wss', 'ftp', 'ftps', 'sftp', 'ssh', 'git'] as const;

const isDigit = (unit: number): boolean => unit >= 0x30 && unit <= 0x39;
const isUpperNameUnit = (unit: number): boolean =>
  (unit >= 0x41 && unit <= 0x5a) || isDigit(unit) || unit === 0x5f;
/** `[A-Za-z0-9_-]`: the characters a vendor key is made of and must not follow. */
const isKeyUnit = (unit: number): boolean =>
  (unit >= 0x61 && unit <= 0x7a) || isUpperNameUnit(unit) || unit === 0x2d;

/** JavaScript's `\s`: what `\s*` in the patterns may skip. */
function isRegexSpace(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (unit < 0xa0) return false;
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/** Whether `text[end - word.length, end)` is `word` (lowercase ASCII), ignoring ASCII case. */
function endsWithFolded(text: string, end: number, word: string): boolean {
  const start = end - word.length;
  if (start < 0) return false;
  for (let index = 0; index < word.length; index++) {
    let unit = text.charCodeAt(start + index);
    if (unit >= 0x41 && unit <= 0x5a) unit += 0x20;
    if (unit !== word.charCodeAt(index)) return false;
  }
  return true;
}

/** Whether a key may start at `start`: no key character stands right before it. */
const startsKey = (text: string, start: number): boolean =>
  start === 0 || !isKeyUnit(text.charCodeAt(start - 1));

const skipSpacesBack = (text: string, from: number): number => {
  let index = from;
  while (index >= 0 && isRegexSpace(text.charCodeAt(index))) index--;
  return index;
};

/** At a `:` (index `at`): authorization headers, JSON secret fields, bot tokens, URLs. */
function colonAnchors(text: string, at: number): number {
  let found = 0;
  const before = text.charCodeAt(at - 1);
  if ((before === 0x6e || before === 0x4e) && endsWithFolded(text, at, 'authorization'))
    found |= SECRET_PATTERN.authHeader;
  const quote = isRegexSpace(before) ? skipSpacesBack(text, at - 1) : at - 1;
  if (quote > 0 && text.charCodeAt(quote) === 0x22) {
    // `"name"` right before: the name runs back to its opening quote.
    let open = quote - 1;
    while (open >= 0 && quote - open <= LONGEST_JSON_FIELD && text.charCodeAt(open) !== 0x22) open--;
    let last = text.charCodeAt(quote - 1);
    if (last >= 0x41 && last <= 0x5a) last += 0x20;
    if (
      open >= 0 &&
      text.charCodeAt(open) === 0x22 &&
      JSON_FIELD_SHAPES.has((quote - open - 1) * 128 + last) &&
      JSON_FIELD_WORDS.has(text.slice(open + 1, quote).toLowerCase())
    )
      found |= SECRET_PATTERN.jsonField;
  }
  if (isDigit(before) && at >= 8) {
    let digits = 1;
    while (digits < 8 && isDigit(text.charCodeAt(at - 1 - digits))) digits++;
    let tail = 0;
    while (digits === 8 && tail < 30 && isKeyUnit(text.charCodeAt(at + 1 + tail))) tail++;
    if (tail === 30) found |= SECRET_PATTERN.telegram;
  }
  if (text.charCodeAt(at + 1) === 0x2f && text.charCodeAt(at + 2) === 0x2f) found |= urlAnchors(text, at);
  return found;
}

/**
 * At `://` (index `at` of the colon): credentials need an `@` after the scheme's `://` with no
 * whitespace before it; URL userinfo and bare tokens also no `/`.
 */
function urlAnchors(text: string, at: number): number {
  let end = at + 3;
  let slash = false;
  for (; end < text.length; end++) {
    const unit = text.charCodeAt(end);
    if (unit === 0x40 || isRegexSpace(unit)) break;
    if (unit === 0x2f) slash = true;
  }
  if (text.charCodeAt(end) !== 0x40) return 0;
  let found = 0;
  if (DB_SCHEMES.some((scheme) => endsWithFolded(text, at, scheme))) found |= SECRET_PATTERN.dbConnection;
  if (!slash && URL_SCHEMES.some((scheme) => endsWithFolded(text, at, scheme))) found |= SECRET_PATTERN.urlAt;
  return found;
}

/** At a `=` (index `at`): `SECRET_NAME = value` assignments and `?token=` query parameters. */
function equalsAnchors(text: string, at: number): number {
  let found = 0;
  const nameEnd = skipSpacesBack(text, at - 1);
  let nameStart = nameEnd;
  while (nameStart >= 0 && isUpperNameUnit(text.charCodeAt(nameStart))) nameStart--;
  if (nameEnd - nameStart >= 3) {
    const name = text.slice(nameStart + 1, nameEnd + 1);
    if (ENV_NAME_WORDS.some((word) => name.includes(word))) found |= SECRET_PATTERN.envAssignment;
  }
  // `[?&]name=`: the name runs back to the `?` or `&` over letters, digits, `_` and `-`.
  let start = at;
  while (start > 0 && at - start <= LONGEST_QUERY_WORD && isKeyUnit(text.charCodeAt(start - 1))) start--;
  const mark = text.charCodeAt(start - 1);
  if (start < at && (mark === 0x3f || mark === 0x26) && QUERY_WORDS.has(text.slice(start, at).toLowerCase()))
    found |= SECRET_PATTERN.query;
  return found;
}

/**
 * Whether a vendor key can start right before the separator at `at`: the word before it (back
 * to a non-key character) is one of the stems, e.g. `ghp` before `_`. Stems are lowercase
 * letters and digits of at most six characters, so the walk back is short.
 */
function stemBefore(text: string, at: number, stems: ReadonlySet<number>): boolean {
  let start = at;
  let packed = 0;
  while (start > 0 && at - start < LONGEST_STEM) {
    const unit = text.charCodeAt(start - 1);
    if (!((unit >= 0x61 && unit <= 0x7a) || isDigit(unit))) break;
    packed = packed * 256 + unit;
    start--;
  }
  if (start === at || (start > 0 && isKeyUnit(text.charCodeAt(start - 1)))) return false;
  return stems.has(packed);
}

/** Vendor key prefixes: stems before a `_` or `-`, `SG.`, and the letter-only `AIza`, `AKIA`, `gAAAA`. */
function prefixPossible(text: string): boolean {
  for (let at = text.indexOf('_'); at !== -1; at = text.indexOf('_', at + 1))
    if (stemBefore(text, at, UNDERSCORE_STEMS)) return true;
  for (let at = text.indexOf('-'); at !== -1; at = text.indexOf('-', at + 1))
    if (stemBefore(text, at, DASH_STEMS)) return true;
  for (let at = text.indexOf('SG.'); at !== -1; at = text.indexOf('SG.', at + 1))
    if (startsKey(text, at)) return true;
  for (let at = text.indexOf('A'); at !== -1; at = text.indexOf('A', at + 1)) {
    if (text.startsWith('Iza', at + 1) || text.startsWith('KIA', at + 1)) {
      if (startsKey(text, at)) return true;
    } else if (
      at > 0 &&
      text.charCodeAt(at - 1) === 0x67 &&
      text.startsWith('AAA', at + 1) &&
      startsKey(text, at - 1)
    )
      return true;
  }
  return false;
}

/** The patterns (`SECRET_PATTERN` bits) that could match somewhere in `text`. */
export function secretPatternAnchors(text: string): number {
  let found = 0;
  if (text.includes('PRIVATE KEY-----')) found |= SECRET_PATTERN.privateKey;
  if (text.includes('Bearer')) found |= SECRET_PATTERN.bearer;
  if (prefixPossible(text)) found |= SECRET_PATTERN.prefix;
  for (let at = text.indexOf('J'); at !== -1; at = text.indexOf('J', at + 1))
    if (at >= 2 && text.charCodeAt(at - 2) === 0x65 && text.charCodeAt(at - 1) === 0x79) {
      found |= SECRET_PATTERN.jwt;
      break;
    }
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) found |= colonAnchors(text, at);
  for (let at = text.indexOf('='); at !== -1; at = text.indexOf('=', at + 1))
    found |= equalsAnchors(text, at);
  return found;
}
