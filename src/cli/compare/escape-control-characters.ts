/**
 * One printable line from any text: line breaks (and the spaces around them) become one space,
 * and every other control character is written as a `\u00XX` escape, so an error that quotes a
 * file's content or name can neither break the one-line contract nor drive the terminal.
 */
export function oneLine(text: string): string {
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(
      /[\u0000-\u001f\u007f-\u009f]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
}
