import type { Preset } from '../presets/preset.ts';

/**
 * The shell command Hermes runs in its sandbox to store a persisted result, shown in the
 * replay log. 2026-07 pipes the content through stdin; 2026-04 embedded it in a heredoc, which
 * failed for results over the 128 KB argument limit (hermes-reference §10).
 */
export function sandboxWriteCommand(
  directory: string,
  fileName: string,
  content: string,
  preset: Preset,
): string {
  const path = `${directory}/${fileName}`;
  const command = `mkdir -p ${directory} && cat > ${path}`;
  return preset.persistence.writeCommand === 'heredoc'
    ? `${command} << 'HERMES_PERSIST_EOF'\n${content}\nHERMES_PERSIST_EOF`
    : command;
}
