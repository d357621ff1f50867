/**
 * Strategies and presets are values below the edges: code decides on a switch of the value,
 * never on its name. This finds the ways a name comparison is written — `=== 'codex-cli'`,
 * `case 'hermes-2026-07':`, `preset.name !== …`, `strategy === …` — so the architecture test
 * can reject them everywhere but the registry that turns names into values.
 */
export interface NameComparison {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function findNameComparisons(
  file: string,
  source: string,
  names: readonly string[],
): NameComparison[] {
  const alternatives = names.map(escape).join('|');
  const quoted = `['"\`](?:${alternatives})['"\`]`;
  const patterns = [
    new RegExp(`[!=]==?\\s*${quoted}`),
    new RegExp(`${quoted}\\s*[!=]==?`),
    new RegExp(`\\bcase\\s+${quoted}\\s*:`),
    // Presence checks (`strategy !== undefined`, `=== null`) compare no name.
    /\b(?:preset|strategy|presetName|strategyName)(?:\.name)?\s*[!=]==?(?!=)(?!\s*(?:undefined|null)\b)/,
    /[!=]==?\s*(?:[\w.]+\.)?(?:preset|strategy|presetName|strategyName)(?:\.name)?\b(?!\s*\()/,
  ];
  const found: NameComparison[] = [];
  source.split('\n').forEach((text, index) => {
    const code = text.replace(/\/\/.*$/, '');
    if (patterns.some((pattern) => pattern.test(code)))
      found.push({ file, line: index + 1, text: text.trim() });
  });
  return found;
}
