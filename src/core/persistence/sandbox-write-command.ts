import type { Preset } from '../presets/preset.ts';
import { sha256Hex } from '../shared/sha256.ts';
import { pythonShellQuote } from './python-shell-quote.ts';

/** Hermes' heredoc delimiter for the 2026-04 write command. */
export const HEREDOC_MARKER = 'HERMES_PERSIST_EOF';

/**
 * The shell command Hermes runs in its sandbox to store a persisted result at `remotePath`
 * (`_write_to_sandbox`, hermes-reference §10): `mkdir -p <dir> && cat > <path>`, where `<dir>` is
 * the path's directory part (`os.path.dirname`) and both are quoted with `shlex.quote`. So an id
 * that is unsafe in a path or a command (2026-04 used the raw id) is quoted, and its `..` or `/`
 * show in the directory made. 2026-07 pipes the content through stdin; 2026-04 embedded it in a
 * heredoc, which failed for results over the 128 KB argument limit.
 */
export function sandboxWriteCommand(remotePath: string, content: string, preset: Preset): string {
  const command = `mkdir -p ${pythonShellQuote(posixDirname(remotePath))} && cat > ${pythonShellQuote(remotePath)}`;
  if (preset.persistence.writeCommand === 'stdin') return command;
  const marker = heredocMarker(content);
  return `${command} << '${marker}'\n${content}\n${marker}`;
}

/** `os.path.dirname` (posixpath): everything before the last `/`, trailing slashes removed unless all slashes. */
export function posixDirname(path: string): string {
  const head = path.slice(0, path.lastIndexOf('/') + 1);
  if (head === '' || /^\/+$/.test(head)) return head;
  return head.replace(/\/+$/, '');
}

/**
 * The heredoc delimiter: `HERMES_PERSIST_EOF` unless the content contains it. Hermes then picks a
 * random `HERMES_PERSIST_<8 hex>`; the port, which takes no randomness, derives the suffix from the
 * content's SHA-256 (the command is shown, never run).
 */
function heredocMarker(content: string): string {
  if (!content.includes(HEREDOC_MARKER)) return HEREDOC_MARKER;
  const digest = sha256Hex(content);
  for (let start = 0; start + 8 <= digest.length; start++) {
    const marker = `HERMES_PERSIST_${digest.slice(start, start + 8)}`;
    if (!content.includes(marker)) return marker;
  }
  return `HERMES_PERSIST_${digest}`;
}
