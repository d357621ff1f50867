const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';
/** Isolate controls inside the string could close our isolate early and let an override out. */
const ISOLATE_CONTROLS = /[\u2066-\u2069]/g;

/**
 * A user's string (a file name, a title, a model name) set inside app text as a bidi isolate:
 * whatever direction it has, and any override it carries (U+202E), ends at its end, so the app's
 * words around it keep their order. The text equivalent of `<bdi>`, for strings that are composed
 * before they reach the page (a status line, an attribute). Isolate controls inside the string
 * are dropped: a stray U+2069 would end the isolate early.
 *
 * @example
 * `Reading ${isolateBidi('evil\u202Etxt.json')}…` // the ellipsis stays after the name
 */
export function isolateBidi(text: string): string {
  return `${FIRST_STRONG_ISOLATE}${text.replace(ISOLATE_CONTROLS, '')}${POP_DIRECTIONAL_ISOLATE}`;
}
