/** Hermes' `sanitize_title` limit, in characters (code points). */
export const MAXIMUM_TITLE_CHARS = 100;

/**
 * Bidirectional embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069). In a title
 * they reorder whatever is shown after it: a file named `report\u202Egpj.exe` reads as
 * `reportexe.jpg`, and the app's own text beside it is reversed as well.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * A title as stored and shown: bidi controls removed, whitespace runs collapsed, trimmed, at most
 * 100 characters; blank is no title.
 *
 * @example
 * sanitizeSessionTitle('  evil\u202Etxt.json ') // 'eviltxt.json'
 */
export function sanitizeSessionTitle(title: string | null): string | null {
  if (title === null) return null;
  const clean = Array.from(title.replace(BIDI_CONTROLS, '').replace(/\s+/g, ' ').trim())
    .slice(0, MAXIMUM_TITLE_CHARS)
    .join('')
    .trim();
  return clean.length > 0 ? clean : null;
}
