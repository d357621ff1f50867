/**
 * Whether a redaction pattern (`redact-sensitive-text.ts`) could match a text, and which, in
 * one native regex scan. Every alternative is one of the few characters each pattern must
 * contain (`_`, `-`, `=`, `:`, `A`, `S`, `B`, `J`) with its context checked by lookarounds, so
 * the regex engine skips every other position with its first-character table and calls back
 * into JavaScript only at real candidates. Measured on the bench session (issue 17): 22.8 MB of
 * message text in ~30 ms on a first call, 4× faster than the `indexOf` anchor scans it replaces
 * (which called into JavaScript at each of 1.4M `_`, `-`, `:`, `=`); 13,700 short texts in
 * ~6 ms, 4× faster than the old case-insensitive pre-screen.
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
import {
  scanSecretCandidates,
  SECRET_SCAN_TEXT_BYTES,
  type SecretAnchorTables,
} from './secret-anchor-scan.ts';

/** `token` → `[tT][oO][kK][eE][nN]`: ASCII case folding, exactly what `/i` without `u` does. */
const foldCase = (word: string): string =>
  word.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);

/** No key character (`[A-Za-z0-9_-]`) right before: where a vendor key may start. */
const KEY_START = '(?<![A-Za-z0-9_-])';
/** The vendor-key stems before `_` and before `-` (a key starts right after a non-key character). */
const UNDERSCORE_STEM_WORDS = [
  ...['ghp', 'gho', 'ghu', 'ghs', 'ghr', 'github', 'fal', 'bb', 'sk', 'rk', 'hf', 'r8', 'npm'],
  ...['dop', 'doo', 'am', 'exa', 'gsk', 'syt'],
];
const DASH_STEM_WORDS = [
  ...['sk', 'xapp', 'pplx', 'fc', 'pypi', 'tvly', 'xai', 'glpat'],
  ...['xoxb', 'xoxa', 'xoxp', 'xoxr', 'xoxs'],
];
const UNDERSCORE_STEMS = `(?:${UNDERSCORE_STEM_WORDS.join('|')})`;
const DASH_STEMS = `(?:${DASH_STEM_WORDS.join('|')})`;
const ENV_NAME_WORD_LIST = ['KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'CREDENTIAL', 'AUTH'];
const ENV_NAME_WORDS = `(?:${ENV_NAME_WORD_LIST.join('|')})`;
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

/** The redaction patterns, one bit each, so a scan can say which could match. */
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
  /** URL userinfo passwords and bare URL tokens. */
  urlAt: 1 << 9,
  query: 1 << 10,
} as const;

/** The alternatives found at one anchor character, each a sticky regex tried at that index. */
type AnchorChecks = readonly (readonly [check: RegExp, patterns: number])[];

const PREFIX_AT_UNDERSCORE = `_(?<=${KEY_START}${UNDERSCORE_STEMS}_)`;
const PREFIX_AT_DASH = `-(?<=${KEY_START}${DASH_STEMS}-)`;
const PRIVATE_KEY_AT_DASH = '-(?<=PRIVATE KEY-)';
const PREFIX_AT_A = `A(?:(?=Iza|KIA)(?<=${KEY_START}A)|(?=AAA)(?<=${KEY_START}gA))`;
const PREFIX_AT_S = `S(?=G\\.)(?<=${KEY_START}S)`;
const ENV_AT_EQUALS = `=(?<=${ENV_NAME_WORDS}[A-Z0-9_]{0,50}\\s*=)`;
const QUERY_AT_EQUALS = `=(?<=[?&]${anyFolded(QUERY_WORDS)}=)`;
const JSON_FIELD_AT_COLON = `:(?<="${anyFolded(JSON_FIELD_WORDS)}"\\s*:)`;
const AUTH_HEADER_AT_COLON = `:(?<=${foldCase('authorization')}:)`;
const TELEGRAM_AT_COLON = ':(?<=\\d{8}:)';
/** Database and URL credentials: `://`, then an `@` before any space. */
const URL_AT_COLON = ':(?=\\/\\/[^\\s@]*@)';
const BEARER_AT_B = 'B(?=earer)';
const JWT_AT_J = 'J(?<=eyJ)';

/**
 * Every alternative consumes only its anchor character (the rest is looked around), so a scan
 * that finds one alternative at a character never hides another at the next.
 */
const ALTERNATIVES = [
  PREFIX_AT_UNDERSCORE,
  PREFIX_AT_DASH,
  PRIVATE_KEY_AT_DASH,
  PREFIX_AT_A,
  PREFIX_AT_S,
  ENV_AT_EQUALS,
  QUERY_AT_EQUALS,
  JSON_FIELD_AT_COLON,
  AUTH_HEADER_AT_COLON,
  TELEGRAM_AT_COLON,
  URL_AT_COLON,
  BEARER_AT_B,
  JWT_AT_J,
].join('|');
const SECRET_SCREEN_RE = new RegExp(ALTERNATIVES);
const SECRET_ANCHORS_RE = new RegExp(ALTERNATIVES, 'g');
/** Every alternative consumes one character: a sticky match at `i` is a match of the screen at `i`. */
const SECRET_AT_RE = new RegExp(ALTERNATIVES, 'y');

const secretAt = (text: string, index: number): boolean => {
  SECRET_AT_RE.lastIndex = index;
  return SECRET_AT_RE.test(text);
};

const sticky = (source: string): RegExp => new RegExp(source, 'y');
const AT_DASH: AnchorChecks = [
  [sticky(PREFIX_AT_DASH), SECRET_PATTERN.prefix],
  [sticky(PRIVATE_KEY_AT_DASH), SECRET_PATTERN.privateKey],
];
const AT_EQUALS: AnchorChecks = [
  [sticky(ENV_AT_EQUALS), SECRET_PATTERN.envAssignment],
  [sticky(QUERY_AT_EQUALS), SECRET_PATTERN.query],
];
const AT_COLON: AnchorChecks = [
  [sticky(JSON_FIELD_AT_COLON), SECRET_PATTERN.jsonField],
  [sticky(AUTH_HEADER_AT_COLON), SECRET_PATTERN.authHeader],
  [sticky(TELEGRAM_AT_COLON), SECRET_PATTERN.telegram],
  [sticky(URL_AT_COLON), SECRET_PATTERN.dbConnection | SECRET_PATTERN.urlAt],
];

function checksAt(text: string, index: number, checks: AnchorChecks): number {
  let found = 0;
  for (let k = 0; k < checks.length; k++) {
    const check = checks[k]![0];
    const patterns = checks[k]![1];
    check.lastIndex = index;
    if (check.test(text)) found |= patterns;
  }
  return found;
}

/** False when no redaction pattern can match anywhere in `text`; true means "run the passes". */
export const couldContainSecret = (text: string): boolean => SECRET_SCREEN_RE.test(text);

/**
 * Texts are screened together in pieces of about this many characters, one regex scan each.
 * 32K characters keep a two-byte piece under V8's 128 KiB large-object size, so pieces are
 * made in the young generation, whose pages are reused, not each in new pages of its own
 * (issue 17: 256K-character pieces cost a fresh process ~380 page faults, ~4 ms, on the bench
 * session; the scans themselves take no longer for being eight times as many).
 */
const SCREEN_PIECE_CHARS = 1 << 15;
/**
 * Texts this long are screened on their own: a call costs little beside their scan, and copying
 * them into a piece cost more than it saved (22.8 MB of a whole session: +20–40 ms).
 */
const JOINED_TEXT_MAX_CHARS = 2048;
/** Characters of texts scanned by one call into the module: a third of its area. */
const SCAN_RUN_CHARS = Math.floor(SECRET_SCAN_TEXT_BYTES / 3);

/**
 * The bits of `secret-scan.wat`'s pair table: what two bytes next to an anchor can be, for the
 * alternative at that anchor to match. Written from the alternatives above (the pairs their
 * lookarounds need right before or after the anchor), so a match always passes.
 */
const PAIR = {
  underscoreStem: 1,
  dashStem: 2,
  beforeJ: 4,
  afterA: 8,
  afterS: 16,
  afterB: 32,
  afterColon: 64,
  authorization: 128,
  jsonField: 256,
  query: 512,
  name: 1024,
  digits: 2048,
  /** The second byte ends a whitespace character (ASCII, or the last byte of one in UTF-8). */
  spaceEnd: 4096,
  /** The second byte is `"`. */
  quoteEnd: 8192,
  /** The last two letters of a secret name word (`ENV_NAME_WORDS`). */
  nameWordEnd: 16384,
} as const;
/** The stem table's bits: a `_` stem, a `-` stem, a JSON field name, a query parameter name. */
const STEM = { underscore: 1, dash: 2, jsonField: 4, query: 8 } as const;

/** `h = (h * 31 + c) & 0xffff` over the characters, as the module hashes a run before an anchor. */
const stemHash = (stem: string): number => {
  let hash = 0;
  for (let i = 0; i < stem.length; i++) hash = (hash * 31 + stem.charCodeAt(i)) & 0xffff;
  return hash;
};
/**
 * The same hash over each character with 0x20 set, as the module hashes a name it compares in
 * either case (a letter's lower case; `-` stays, `_` becomes 0x7f).
 */
const foldedHash = (name: string): number => {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + (name.charCodeAt(i) | 0x20)) & 0xffff;
  return hash;
};

function buildAnchorTables(): SecretAnchorTables {
  const pairs = new Uint16Array(65536);
  const stems = new Uint8Array(65536);
  const mark = (pair: string, bit: number): void => {
    pairs[pair.charCodeAt(0) | (pair.charCodeAt(1) << 8)]! |= bit;
  };
  // Both cases of each ASCII letter, as `foldCase` spells them.
  const markFolded = (pair: string, bit: number): void => {
    const first = pair[0]!;
    const second = pair[1]!;
    for (const a of [first.toLowerCase(), first.toUpperCase()])
      for (const b of [second.toLowerCase(), second.toUpperCase()]) mark(a + b, bit);
  };
  const lastTwo = (word: string): string => word.slice(-2);
  for (const stem of UNDERSCORE_STEM_WORDS) {
    mark(lastTwo(stem), PAIR.underscoreStem);
    stems[stemHash(stem)]! |= STEM.underscore;
  }
  for (const stem of DASH_STEM_WORDS) {
    mark(lastTwo(stem), PAIR.dashStem);
    stems[stemHash(stem)]! |= STEM.dash;
  }
  mark('EY', PAIR.dashStem); // PRIVATE_KEY_AT_DASH
  mark('ey', PAIR.beforeJ); // JWT_AT_J
  for (const after of ['Iz', 'KI', 'AA']) mark(after, PAIR.afterA); // PREFIX_AT_A
  mark('G.', PAIR.afterS); // PREFIX_AT_S
  mark('ea', PAIR.afterB); // BEARER_AT_B
  mark('//', PAIR.afterColon); // URL_AT_COLON
  markFolded('on', PAIR.authorization); // AUTH_HEADER_AT_COLON
  for (const word of JSON_FIELD_WORDS) {
    markFolded(lastTwo(word), PAIR.jsonField);
    // `api_?key`: both spellings.
    for (const name of word.includes('_?') ? [word.replace('_?', '_'), word.replace('_?', '')] : [word])
      stems[foldedHash(name)]! |= STEM.jsonField;
  }
  for (const word of QUERY_WORDS) {
    markFolded(lastTwo(word), PAIR.query);
    stems[foldedHash(word)]! |= STEM.query;
  }
  for (const word of ENV_NAME_WORD_LIST) mark(lastTwo(word), PAIR.nameWordEnd);
  // Built once per process, on its critical path: indexed loops over the byte codes.
  const markAll = (firsts: string, seconds: string, bit: number): void => {
    for (let i = 0; i < firsts.length; i++)
      for (let j = 0; j < seconds.length; j++)
        pairs[firsts.charCodeAt(i) | (seconds.charCodeAt(j) << 8)]! |= bit;
  };
  const nameCharacters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'; // ENV_AT_EQUALS
  markAll(nameCharacters, nameCharacters, PAIR.name);
  const digits = '0123456789'; // TELEGRAM_AT_COLON
  markAll(digits, digits, PAIR.digits);
  // The last byte of each character of `\s` in UTF-8: tab to carriage return and space; A0 of
  // U+00A0; 80 of U+1680 and U+3000; 80-8A, A8, A9, AF of U+2000-U+202F; 9F of U+205F; BF of U+FEFF.
  const spaceEnds = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0xa8, 0xa9, 0xaf, 0x9f, 0xbf];
  for (let byte = 0x80; byte <= 0x8a; byte++) spaceEnds.push(byte);
  for (let k = 0; k < spaceEnds.length; k++)
    for (let first = 0; first < 256; first++) pairs[first | (spaceEnds[k]! << 8)]! |= PAIR.spaceEnd;
  for (let first = 0; first < 256; first++) pairs[first | (0x22 << 8)]! |= PAIR.quoteEnd;
  // What lets each anchor through to the module's full check: pair bits before it (low half),
  // after it (high half). `=` and `:` may have whitespace before their name or field.
  const masks = new Uint32Array(256);
  const before = (anchor: string, bits: number): void => {
    masks[anchor.charCodeAt(0)]! |= bits;
  };
  const after = (anchor: string, bits: number): void => {
    masks[anchor.charCodeAt(0)]! |= bits << 16;
  };
  before('_', PAIR.underscoreStem);
  before('-', PAIR.dashStem);
  before('J', PAIR.beforeJ);
  before('=', PAIR.query | PAIR.name | PAIR.spaceEnd);
  before(':', PAIR.authorization | PAIR.digits | PAIR.spaceEnd | PAIR.quoteEnd);
  after(':', PAIR.afterColon);
  after('A', PAIR.afterA);
  after('S', PAIR.afterS);
  after('B', PAIR.afterB);
  return { pairs, stems, masks };
}

/** The module's tables, built when the module is first used; null: not used yet. */
let anchorTables: SecretAnchorTables | null = null;
/** `loadSecretScan` was called: every screen goes to the module, short texts too. */
let scanEveryScreen = false;
/**
 * The module costs a call into it (and a `TextEncoder` call) per text, ~0.4 µs, and saves ~1.4 ns
 * a character against the regex: texts shorter than this on average are screened faster by the
 * regex, which takes them ~32K characters at a time (a Hermes compaction of the bench session:
 * ~12,000 texts of ~110 characters, its tool results already cut to one line).
 */
const SCAN_MIN_AVERAGE_CHARS = 256;
/**
 * The tables for a screen of `count` texts of `chars` characters, or null to screen by the regex.
 * The module is loaded at the first screen of long texts and kept. Loading it costs a fresh
 * process ~1.4 ms (compiling it, building and copying its tables), what the regex, itself not yet
 * warm there (~3.5 ns a character), spends on ~400K characters; waiting until the regex had
 * screened a million characters cost LCM's first compaction its first dozen leaves by the regex.
 */
function scanTablesFor(chars: number, count: number): SecretAnchorTables | null {
  if (!scanEveryScreen && chars < SCAN_MIN_AVERAGE_CHARS * count) return null;
  return (anchorTables ??= buildAnchorTables());
}

/**
 * Uses the WebAssembly scan from now on for every screen, short texts too, whatever has been
 * screened so far (where WebAssembly is available): for tests of the scan itself, and a process
 * that knows it will screen much.
 */
export function loadSecretScan(): void {
  scanEveryScreen = true;
  anchorTables ??= buildAnchorTables();
}

/**
 * `couldContainSecret` of many texts at once: `flags[i]` is 1 when a pattern could match
 * `texts[i]`. A compaction screens every turn it serialises: 22.8 MB of text for a strategy
 * that summarises a whole 10,000-message session, mostly short texts (one-liners, shrunk
 * arguments), for which one call per text cost about as much as the scanning itself.
 *
 * In WebAssembly (`secret-anchor-scan.ts`), runs of texts up to ~350K characters are scanned by
 * one call, each text after a zero byte, and the candidates are checked by the screen's regex at
 * their index in their own text, so the flags are exactly `couldContainSecret` of each text.
 * For texts too short on average to be worth a call each (`SCAN_MIN_AVERAGE_CHARS`), where
 * WebAssembly is unavailable, and for a run over the module's area, the regex scans instead
 * (`screenWithRegex`): the short texts joined with newlines into pieces of ~32K characters, one
 * scan each, the long ones on their own. A flag may then be set where the text alone would not
 * be (an anchor whose lookbehind reaches into the text before), never missed: every alternative
 * consumes only its anchor character, a newline is no anchor, and the only negative lookaround
 * (no key character before a vendor key) holds at a text's start either way, since a newline is
 * no key character.
 *
 * With `findings` (`createSecretFindings`), each flagged text also gets there what its redaction
 * would otherwise scan for again (`SecretFindings`): from the candidates the module confirmed,
 * or, for a text the regex flagged, by `possibleSecretPatterns` itself.
 */
export function screenTexts(texts: readonly string[], findings?: SecretFindings): Uint8Array {
  const flags = new Uint8Array(texts.length);
  let chars = 0;
  for (let i = 0; i < texts.length; i++) chars += texts[i]!.length;
  const tables = scanTablesFor(chars, texts.length);
  if (tables === null) {
    screenWithRegex(texts, 0, texts.length, flags);
    if (findings) findingsOfFlagged(texts, flags, findings);
    return flags;
  }
  // Runs of texts up to a third of the module's area (a character is at most three bytes in
  // UTF-8) go in one call; a run that did not fit after all is screened by the regex.
  let start = 0;
  while (start < texts.length) {
    let end = start + 1;
    let runChars = texts[start]!.length;
    while (end < texts.length && runChars + 1 + texts[end]!.length <= SCAN_RUN_CHARS) {
      runChars += 1 + texts[end]!.length;
      end++;
    }
    if (!scanRun(texts, start, end, flags, tables, findings)) {
      screenWithRegex(texts, start, end, flags);
      if (findings) findingsOfFlagged(texts, flags, findings, start, end);
    }
    start = end;
  }
  return flags;
}

/** The findings of each flagged text of `texts[from, to)`, by `possibleSecretPatterns`. */
function findingsOfFlagged(
  texts: readonly string[],
  flags: Uint8Array,
  findings: SecretFindings,
  from = 0,
  to = texts.length,
): void {
  for (let k = from; k < to; k++)
    if (flags[k] === 1) findings.patterns[k] = secretPatternsOf(texts[k]!, findings.assignments, k);
}

/** `screenTexts` of `texts[from, to)` by the regex: short texts in pieces, long ones alone. */
function screenWithRegex(texts: readonly string[], from: number, to: number, flags: Uint8Array): void {
  let start = from;
  while (start < to) {
    if (texts[start]!.length >= JOINED_TEXT_MAX_CHARS) {
      flags[start] = couldContainSecret(texts[start]!) ? 1 : 0;
      start++;
      continue;
    }
    let end = start + 1;
    let chars = texts[start]!.length;
    while (
      end < to &&
      texts[end]!.length < JOINED_TEXT_MAX_CHARS &&
      chars + texts[end]!.length < SCREEN_PIECE_CHARS
    ) {
      chars += texts[end]!.length + 1;
      end++;
    }
    if (end - start === 1) flags[start] = couldContainSecret(texts[start]!) ? 1 : 0;
    else screenPiece(texts, start, end, flags);
    start = end;
  }
}

/**
 * Flags the texts of `texts[start, end)` where the screen matches, scanning them as one in
 * WebAssembly, a zero byte between (the module's conditions stop at a zero as at a text's edge);
 * false when the run was not scanned (over the module's area, or WebAssembly is unavailable).
 * With `findings`, every candidate is checked, and the patterns each confirmed one could start
 * are added to its text's (as `possibleSecretPatterns` does); without, one is enough.
 */
function scanRun(
  texts: readonly string[],
  start: number,
  end: number,
  flags: Uint8Array,
  tables: SecretAnchorTables,
  findings: SecretFindings | undefined,
): boolean {
  const candidates = scanSecretCandidates(texts, start, end, tables);
  if (candidates === null) return false;
  let text = start;
  // Where text `text` starts in the texts joined.
  let textStart = 0;
  for (let k = 0; k < candidates.length; k++) {
    const at = candidates[k]!;
    while (at > textStart + texts[text]!.length) {
      textStart += texts[text]!.length + 1;
      text++;
    }
    if (findings === undefined) {
      if (flags[text] === 0 && secretAt(texts[text]!, at - textStart)) flags[text] = 1;
    } else if (secretAt(texts[text]!, at - textStart)) {
      flags[text] = 1;
      findings.patterns[text]! |= patternsFoundAt(texts[text]!, at - textStart, findings.assignments, text);
    }
  }
  return true;
}

/** Flags the texts of `texts[start, end)` that hold an anchor, scanning them joined by the regex. */
function screenPiece(texts: readonly string[], start: number, end: number, flags: Uint8Array): void {
  const piece = texts.slice(start, end).join('\n');
  let text = start;
  // Where text `text` ends in the piece (the newline after it).
  let textEnd = texts[start]!.length;
  SECRET_ANCHORS_RE.lastIndex = 0;
  for (let match = SECRET_ANCHORS_RE.exec(piece); match !== null; match = SECRET_ANCHORS_RE.exec(piece)) {
    while (match.index > textEnd) {
      text++;
      textEnd += 1 + texts[text]!.length;
    }
    flags[text] = 1;
    // One anchor is enough: go on from the next text.
    if (text + 1 >= end) break;
    text++;
    SECRET_ANCHORS_RE.lastIndex = textEnd + 1;
    textEnd += 1 + texts[text]!.length;
  }
}

/**
 * The patterns (`SECRET_PATTERN` bits) that could match somewhere in `text`, from the same one
 * scan: each anchor it finds (rare) is told apart by the character and, where two patterns
 * share one, by trying each at that index. A clear bit means its pattern cannot match, so its
 * pass can be skipped; a set bit only means "run the pattern".
 */
export const possibleSecretPatterns = (text: string): number => secretPatternsOf(text, undefined, 0);

/** `possibleSecretPatterns`, listing the `=` of possible assignments as `assignments[slot]`. */
function secretPatternsOf(text: string, assignments: SecretAssignments | undefined, slot: number): number {
  let found = 0;
  // In WebAssembly where it serves: the anchors are the candidates the screen's regex confirms.
  const tables = scanTablesFor(text.length, 1);
  const candidates = tables === null ? null : scanSecretCandidates([text], 0, 1, tables);
  if (candidates !== null) {
    for (let k = 0; k < candidates.length; k++) {
      const at = candidates[k]!;
      if (secretAt(text, at)) found |= patternsFoundAt(text, at, assignments, slot);
    }
    return found;
  }
  SECRET_ANCHORS_RE.lastIndex = 0;
  for (let match = SECRET_ANCHORS_RE.exec(text); match !== null; match = SECRET_ANCHORS_RE.exec(text))
    found |= patternsFoundAt(text, match.index, assignments, slot);
  return found;
}

/** What a screen of many texts found in each, so that its redaction need not scan it again. */
export interface SecretFindings {
  /** Per text: what `possibleSecretPatterns` gives for it; 0 for a text the screen passed. */
  readonly patterns: Uint16Array;
  /**
   * Per text: the indices of the `=` where a secret assignment's name could end
   * (`SECRET_PATTERN.envAssignment` found there), in order; no entry for a text with none.
   */
  readonly assignments: SecretAssignments;
}

type SecretAssignments = (number[] | undefined)[];

/** Empty findings for a screen of `count` texts. */
export const createSecretFindings = (count: number): SecretFindings => ({
  patterns: new Uint16Array(count),
  // Its full length at once: entries set at a few indices of thousands would make a sparse array.
  assignments: new Array<number[] | undefined>(count),
});

/** `patternsAt`, the index listed in `assignments[slot]` when an assignment could end there. */
function patternsFoundAt(
  text: string,
  index: number,
  assignments: SecretAssignments | undefined,
  slot: number,
): number {
  const found = patternsAt(text, index);
  if (assignments !== undefined && (found & SECRET_PATTERN.envAssignment) !== 0)
    (assignments[slot] ??= []).push(index);
  return found;
}

/** The patterns an anchor of the screen at `index` could start, told apart by its character. */
function patternsAt(text: string, index: number): number {
  switch (text.charCodeAt(index)) {
    case 0x2d: // -
      return checksAt(text, index, AT_DASH);
    case 0x3d: // =
      return checksAt(text, index, AT_EQUALS);
    case 0x3a: // :
      return checksAt(text, index, AT_COLON);
    case 0x42: // B
      return SECRET_PATTERN.bearer;
    case 0x4a: // J
      return SECRET_PATTERN.jwt;
    default: // _, A, S
      return SECRET_PATTERN.prefix;
  }
}
