/**
 * Control characters a terminal would act on instead of showing: C0 (ESC starts the sequences that
 * set a window title, move the cursor or rewrite the screen; CR returns to the line start; BEL),
 * DEL, C1 (CSI and OSC in their 8-bit form) and the bidirectional overrides and isolates that
 * reorder what follows. Line feed and tab are handled by the callers' options.
 */
const CONTROL_CHARACTERS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_CHARACTERS_AND_LINE_BREAKS =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const visible = (character: string): string => {
  const code = character.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * Text from a file made safe to print: every control character written as an escape (`\x1b`,
 * `\x07`, `\u202e`), so `ESC ]0;title BEL` in a transcript shows as `\x1b]0;title\x07` instead of
 * retitling the terminal. Tabs are kept; line feeds too when `keepLineFeeds` (a report), else escaped.
 *
 * @example
 * escapeControlCharacters('bad \u001b]0;pwned\u0007 name') // 'bad \\x1b]0;pwned\\x07 name'
 */
export function escapeControlCharacters(text: string, keepLineFeeds = false): string {
  if (keepLineFeeds) return text.replace(CONTROL_CHARACTERS, visible);
  return text.replace(CONTROL_CHARACTERS_AND_LINE_BREAKS, (character) =>
    character === '\t' ? character : visible(character),
  );
}

/**
 * JSON text with the controls `JSON.stringify` leaves raw (DEL, C1, bidi controls, U+2028/9)
 * written as `\uXXXX` escapes: the same JSON value, safe to print.
 */
export function escapeJsonControlCharacters(json: string): string {
  return json.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
