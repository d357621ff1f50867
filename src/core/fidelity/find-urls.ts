import type { FactSink } from './fact-collector.ts';
import { isMatchWordCode, normalizeMatchText } from './normalize-match-text.ts';

const MAX_URL_CHARACTERS = 2_048;

/** Characters that end a URL in running text: whitespace and controls, quotes, `<>`, `\\`, `{|}^`. */
const URL_END_CODES = new Uint8Array(128);
for (let code = 0; code <= 32; code++) URL_END_CODES[code] = 1;
for (const character of '"\'<>`\\{}|^') URL_END_CODES[character.charCodeAt(0)] = 1;

/**
 * Adds a `url` fact for every `http://` or `https://` URL in the text. The text survival looks
 * for leaves out the scheme, a leading `www.` and a trailing slash, so a summary that writes
 * `example.com/docs` keeps `https://www.example.com/docs/`.
 *
 * @example findUrls('docs at https://example.com/a/b).', sink) // example.com/a/b
 */
export function findUrls(text: string, sink: FactSink): void {
  let from = 0;
  for (;;) {
    const at = text.indexOf('http', from);
    if (at === -1) return;
    from = at + 4;
    const scheme = text.startsWith('https://', at) ? 8 : text.startsWith('http://', at) ? 7 : 0;
    if (scheme === 0 || (at > 0 && isMatchWordCode(text.charCodeAt(at - 1)))) continue;
    let end = at + scheme;
    const limit = Math.min(text.length, at + MAX_URL_CHARACTERS);
    while (end < limit) {
      const code = text.charCodeAt(end);
      if (code < 128 ? URL_END_CODES[code] === 1 : code === 0x3000 || code === 0xa0) break;
      end++;
    }
    from = end;
    const url = trimUrl(text.slice(at, end));
    if (url.length <= scheme + 3) continue;
    sink.add('url', url, urlMatchText(url));
  }
}

/** Trailing sentence punctuation is not part of a URL; a `)` is, when it closes one the URL opened. */
function trimUrl(url: string): string {
  let end = url.length;
  let unbalanced = count(url, ')') - count(url, '(');
  while (end > 0) {
    const last = url[end - 1]!;
    if ('.,;:!?\'"]'.includes(last)) end--;
    else if (last === ')' && unbalanced > 0) {
      end--;
      unbalanced--;
    } else break;
  }
  return url.slice(0, end);
}

function count(text: string, character: string): number {
  let found = 0;
  for (let index = text.indexOf(character); index !== -1; index = text.indexOf(character, index + 1)) found++;
  return found;
}

/** `https://www.Example.com/docs/` → `example.com/docs`. */
export function urlMatchText(url: string): string {
  return normalizeMatchText(url)
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}
