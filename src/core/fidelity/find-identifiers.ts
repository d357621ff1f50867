import type { FactSink } from './fact-collector.ts';
import { hasFileExtension, normalizeFactPath } from './normalize-fact-path.ts';
import { addPath } from './find-paths.ts';
import { isMatchWordCode, normalizeMatchText } from './normalize-match-text.ts';

const MIN_IDENTIFIER_CHARACTERS = 3;
const MAX_IDENTIFIER_CHARACTERS = 100;
const SLASH = 47;

/**
 * Declarations in code: `def name(`, `function name(`, `fn name<`, `func name(`, and
 * `class`/`interface`/`struct`/`enum`/`trait Name` followed by what a declaration continues
 * with. Requiring the `(`, `{` or `:` keeps "this function returns" in a comment out.
 */
const DECLARATION =
  /\b(?:def|function|func|fn)\s+([A-Za-z_$][\w$]*)\s*[(<]|\b(?:class|interface|struct|enum|trait)\s+([A-Za-z_$][\w$]*)(?=\s*[:({<]|\s+(?:extends|implements)\b)/g;

/** A declaration searched for (`def create_user`, `class LintResult`): nothing needs to follow it. */
const SEARCHED_DECLARATION =
  /\b(?:def|function|func|fn|class|interface|struct|enum|trait)\s+([A-Za-z_$][\w$]*)/g;

/** A symbol reference: dotted or `::` parts, an optional `()`. */
const REFERENCE = /[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*(?:\(\))?/g;
const WHOLE_REFERENCE = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)*(?:\(\))?$/;

/**
 * Adds an `identifier` fact for every function, class and type a piece of code declares; with
 * `searched`, for every one a search pattern looks for (`def create_user`).
 *
 * @example findCodeDeclarations('class CacheManager:\n    def get_cached(self):', sink)
 * // CacheManager, get_cached
 */
export function findCodeDeclarations(code: string, sink: FactSink, searched = false): void {
  const pattern = searched ? SEARCHED_DECLARATION : DECLARATION;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(code); match !== null; match = pattern.exec(code)) {
    const name = match[1] ?? match[2] ?? '';
    if (name.length >= MIN_IDENTIFIER_CHARACTERS) sink.add('identifier', name);
  }
}

/**
 * Adds the symbols prose names: every backticked span that is a symbol (or a path, added as a
 * path), and bare words that cannot be English: `snake_case`, `camelCase`, `PascalCase` with
 * two capitals or more, `a::b`, and calls `Foo.bar()`. Plain words, dotted words without a call
 * (`os.path`, `Node.js`, `e.g.`) and file names are left out.
 *
 * @example findProseIdentifiers('Fixed `cached_data.version` in CacheManager via pytest.skip().', sink)
 * // cached_data.version, CacheManager, pytest.skip()
 */
export function findProseIdentifiers(text: string, sink: FactSink): void {
  findBacktickedSymbols(text, sink);
  REFERENCE.lastIndex = 0;
  for (let match = REFERENCE.exec(text); match !== null; match = REFERENCE.exec(text)) {
    const reference = match[0];
    if (reference.length > MAX_IDENTIFIER_CHARACTERS) continue;
    // A directory name inside a path (`my_project/src`) is part of the path, not a symbol; and
    // the tail of a word that starts with a digit (`2x2_all_ones`) is no symbol of its own.
    const end = match.index + reference.length;
    const before = text.charCodeAt(match.index - 1);
    if (before === SLASH || text.charCodeAt(end) === SLASH || isMatchWordCode(before)) continue;
    if (isDistinctiveReference(reference) && !looksLikeFileName(reference)) addIdentifier(reference, sink);
  }
}

/** Adds a single value (a search pattern, a symbol argument) when it is one distinctive symbol. */
export function addSymbolValue(value: string, sink: FactSink): void {
  const symbol = value.trim();
  if (symbol.length > MAX_IDENTIFIER_CHARACTERS || !WHOLE_REFERENCE.test(symbol)) return;
  if (isDistinctiveReference(symbol) || isPascalCaseWord(symbol)) addIdentifier(symbol, sink);
}

function findBacktickedSymbols(text: string, sink: FactSink): void {
  let from = 0;
  for (;;) {
    const open = text.indexOf('`', from);
    if (open === -1) return;
    const close = text.indexOf('`', open + 1);
    if (close === -1) return;
    from = close + 1;
    const span = text.slice(open + 1, close).trim();
    if (span.length < 2 || span.length > MAX_IDENTIFIER_CHARACTERS || span.includes('\n')) continue;
    if (normalizeFactPath(span) !== null) addPath(span, sink);
    else if (WHOLE_REFERENCE.test(span) && (isDistinctiveReference(span) || isPascalCaseWord(span))) {
      addIdentifier(span, sink);
    }
  }
}

/** Shown as written; matched without a trailing `()`, so a summary naming `pytest.skip` keeps it. */
function addIdentifier(reference: string, sink: FactSink): void {
  if (reference.length < MIN_IDENTIFIER_CHARACTERS) return;
  const bare = reference.endsWith('()') ? reference.slice(0, -2) : reference;
  sink.add('identifier', reference, normalizeMatchText(bare));
}

/**
 * Something no English sentence writes: a call, `_`, `::`, `#`, camelCase, or PascalCase with
 * two humps; product names spelled that way (`TypeScript`, `GitHub.com`) are not symbols.
 */
function isDistinctiveReference(reference: string): boolean {
  if (reference.endsWith('()')) return reference.length >= 5;
  if (reference.includes('::') || reference.includes('->')) return true;
  const parts = reference.split(/[.#]/);
  if (PRODUCT_NAMES.has(parts[0]!.toLowerCase())) return false;
  return parts.some(
    (part) => /[A-Za-z0-9]_|_[A-Za-z0-9]/.test(part) || /[a-z][A-Z]/.test(part) || isTwoHumpPascal(part),
  );
}

const isTwoHumpPascal = (word: string): boolean => /^[A-Z][a-z0-9]+[A-Z]/.test(word);

/**
 * Product and company names spelled like code (`TypeScript`, `OpenAI`, `macOS`): prose writes
 * them all the time and they name nothing in the project.
 */
const PRODUCT_NAMES = new Set(
  (
    'openai typescript javascript coffeescript github gitlab bitbucket opencode postgresql mysql mongodb ' +
    'fastapi macos ios ipados iphone ipad youtube linkedin wordpress powershell vscode devops chatgpt ' +
    'deepseek openrouter graphql nodejs webassembly sqlite sqlalchemy dynamodb cloudflare codemie'
  ).split(' '),
);

/** Words backticked in prose that are values or keywords, not the project's symbols. */
const KEYWORD_WORDS = new Set(['none', 'true', 'false', 'null', 'undefined', 'self', 'this', 'nan', 'void']);

/** `Optional`, `BaseRule`: a capitalised word of four letters or more, accepted only in backticks. */
const isPascalCaseWord = (word: string): boolean =>
  /^[A-Z][A-Za-z0-9]{3,}$/.test(word) &&
  /[a-z]/.test(word) &&
  !KEYWORD_WORDS.has(word.toLowerCase()) &&
  !PRODUCT_NAMES.has(word.toLowerCase());

const looksLikeFileName = (reference: string): boolean =>
  !reference.endsWith('()') && hasFileExtension(reference);
