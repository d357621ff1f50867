import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '#core/presets/preset-name.ts';
import { STRATEGY_NAMES } from '#core/strategies/strategy-registry.ts';
import { findNameComparisons } from './find-name-comparisons.ts';

const srcDir = resolve(import.meta.dirname, '../../src');
/** The edges that may hold names: the registries that turn a name into a value. */
const REGISTRIES = [
  'core/strategies/strategy-registry.ts',
  'core/strategies/strategy-names.ts',
  'core/presets/',
];
const NAMES = [...new Set([...STRATEGY_NAMES, ...PRESET_NAMES])];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|svelte)$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

describe('strategy and preset names', () => {
  it('are never compared outside the registry: code passes the value and reads its switches', () => {
    const comparisons = sourceFiles(srcDir).flatMap((path) => {
      const file = relative(srcDir, path);
      if (REGISTRIES.some((registry) => file.startsWith(registry))) return [];
      return findNameComparisons(file, readFileSync(path, 'utf8'), NAMES);
    });
    expect(comparisons).toEqual([]);
  });

  it('catches every way a comparison is written, and leaves identity checks of values alone', () => {
    const flagged = (code: string): boolean => findNameComparisons('x.ts', code, NAMES).length > 0;
    expect(flagged("if (preset === 'hermes-2026-07') return;")).toBe(true);
    expect(flagged("const legacy = 'hermes-2026-04' !== name;")).toBe(true);
    expect(flagged("    case 'codex-cli':")).toBe(true);
    expect(flagged('if (strategy.name === chosen) go();')).toBe(true);
    expect(flagged('const same = other == preset;')).toBe(true);
    expect(flagged("if (input.preset.name !== 'lcm') skip();")).toBe(true);
    expect(flagged("if (preset.caching.markers === 'every-message') return;")).toBe(false);
    expect(flagged('Object.is(document.preset, preset)')).toBe(false);
    expect(flagged("// preset === 'hermes-2026-07' was the old way")).toBe(false);
    expect(flagged('if (patch.strategy !== undefined) reset();')).toBe(false);
    expect(flagged('const none = preset === null;')).toBe(false);
    expect(flagged('if (patch.strategy !== undefinedStrategy) reset();')).toBe(true);
  });
});
