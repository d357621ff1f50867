import { capAtWord } from './cap-at-word.ts';

/** Longest command kept: its first line says what was run. */
export const MAX_COMMAND_CHARACTERS = 160;

const SHELLS = new Set(['bash', 'sh', 'zsh', 'fish', 'dash', 'pwsh', 'powershell', 'cmd', 'cmd.exe']);
const SHELL_SCRIPT_FLAGS = new Set(['-c', '-lc', '-ic', '-lic', '/c', '-Command']);

/**
 * The command a shell tool ran, as a command fact shows it: Codex's `["bash", "-lc", "…"]` as
 * its script, other argument arrays joined with spaces; only the first non-empty line (a heredoc
 * is named by its `cat > x <<EOF` line); a leading `cd <dir> &&` dropped, because the
 * directory is the session's, not the command's; whitespace collapsed. Null when empty.
 *
 * @example shellCommandText(['bash', '-lc', 'cd /repo && npm test -- --run']) // 'npm test -- --run'
 */
export function shellCommandText(command: string | readonly string[]): string | null {
  // A 10 MB script is read only as far as a command can be long.
  let script: string;
  if (typeof command === 'string') script = command;
  else {
    const program = (command[0] ?? '').split('/').pop() ?? '';
    script =
      command.length >= 3 && SHELLS.has(program) && SHELL_SCRIPT_FLAGS.has(command[1] ?? '')
        ? command.slice(2).join(' ')
        : command.join(' ');
  }
  let start = script.slice(0, 4 * MAX_COMMAND_CHARACTERS).trimStart();
  for (let match = CD_PREFIX.exec(start); match !== null; match = CD_PREFIX.exec(start)) {
    start = start.slice(match[0].length);
  }
  const text = commandLines(start).replace(/\s+/g, ' ').trim();
  return text === '' ? null : capAtWord(text, MAX_COMMAND_CHARACTERS);
}

const CD_PREFIX = /^cd\s+(?:"[^"]*"|'[^']*'|\S+)\s*(?:&&|;)\s*/;

/** A first line shorter than this (`python -c "`) does not say what ran; the next lines are added. */
const MIN_FIRST_LINE_CHARACTERS = 24;

/**
 * The first non-empty line of a script, or its first lines up to the length a command can have
 * when that line alone is too short to say anything.
 */
function commandLines(script: string): string {
  const head = script.trimStart();
  const newline = head.indexOf('\n');
  if (newline === -1 || head.slice(0, newline).trim().length >= MIN_FIRST_LINE_CHARACTERS) {
    return newline === -1 ? head : head.slice(0, newline);
  }
  return head;
}
