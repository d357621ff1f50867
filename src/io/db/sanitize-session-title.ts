/** Hermes' `sanitize_title` limit, in characters (code points). */
export const MAXIMUM_TITLE_CHARS = 100;

/** A title as stored: whitespace runs collapsed, trimmed, at most 100 characters; blank is no title. */
export function sanitizeSessionTitle(title: string | null): string | null {
  if (title === null) return null;
  const clean = Array.from(title.replace(/\s+/g, ' ').trim()).slice(0, MAXIMUM_TITLE_CHARS).join('').trim();
  return clean.length > 0 ? clean : null;
}
