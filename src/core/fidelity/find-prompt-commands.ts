import type { FactSink } from './fact-collector.ts';
import { shellCommandText } from './shell-command-text.ts';

/** A shell prompt line: `$ npm test`, indented or not. `$` must be followed by a space. */
const PROMPT_LINE = /^[ \t]*\$ +(\S[^\n]*)$/gm;

/**
 * Adds a `command` fact for every `$ command` line: commands users and assistants show as run
 * in a terminal.
 *
 * @example findPromptCommands('Output of\n$ git status --short\n M a.ts', sink) // 'git status --short'
 */
export function findPromptCommands(text: string, sink: FactSink): void {
  if (!text.includes('$ ')) return;
  PROMPT_LINE.lastIndex = 0;
  for (let match = PROMPT_LINE.exec(text); match !== null; match = PROMPT_LINE.exec(text)) {
    const command = shellCommandText(match[1]!);
    if (command !== null) sink.add('command', command);
  }
}
