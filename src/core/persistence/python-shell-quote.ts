/**
 * Python's `shlex.quote`: a word made only of `[A-Za-z0-9_@%+=:,./-]` goes out as it is, the
 * empty word as `''`, anything else in single quotes with each `'` written `'"'"'`. Hermes quotes
 * the storage directory and the file path this way in the command that writes a persisted result.
 */
export function pythonShellQuote(word: string): string {
  if (word === '') return "''";
  if (!UNSAFE.test(word)) return word;
  return `'${word.replaceAll("'", `'"'"'`)}'`;
}

const UNSAFE = /[^A-Za-z0-9_@%+=:,./-]/;
