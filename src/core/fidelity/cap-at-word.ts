/**
 * `text` cut to at most `maxCharacters`, at the last space before the limit when there is one
 * in its second half, else after the last character that is not a letter, digit or `_`, so the
 * cut never falls inside a word: the result is a prefix of `text` that still matches it as
 * whole words (see `findSurvivingFacts`). Only a run of word characters longer than half the
 * limit is cut inside itself. No ellipsis is added.
 *
 * @example capAtWord('ModuleNotFoundError: No module named numpy', 25) // 'ModuleNotFoundError: No'
 */
export function capAtWord(text: string, maxCharacters: number): string {
  if (text.length <= maxCharacters) return text;
  const space = text.lastIndexOf(' ', maxCharacters);
  if (space > maxCharacters / 2) return text.slice(0, space);
  for (let end = maxCharacters; end > maxCharacters / 2; end--) {
    if (!/\w/.test(text[end - 1]!) || !/\w/.test(text[end]!)) return text.slice(0, end);
  }
  return text.slice(0, maxCharacters);
}
