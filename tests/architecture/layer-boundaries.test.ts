import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findLayerViolations, type Layer } from './find-layer-violations.ts';

const srcDir = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(ts|svelte)$/.test(entry) && !entry.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

function layerOf(path: string): Layer | null {
  const top = relative(srcDir, path).split('/')[0];
  if (top === 'main.ts') return 'main';
  if (
    top === 'core' ||
    top === 'worker' ||
    top === 'io' ||
    top === 'state' ||
    top === 'ui' ||
    top === 'cli'
  ) {
    return top;
  }
  return null;
}

describe('layer boundaries', () => {
  const files = sourceFiles(srcDir);

  it('finds source files in every layer', () => {
    const layers = new Set(files.map(layerOf));
    for (const layer of ['core', 'worker', 'io', 'state', 'ui', 'cli', 'main'] as const) {
      expect(layers, `no files found in ${layer}`).toContain(layer);
    }
  });

  it('has no import or global that its layer forbids', () => {
    const violations = files.flatMap((path) => {
      const layer = layerOf(path);
      if (!layer) return [];
      return findLayerViolations(layer, relative(srcDir, path), readFileSync(path, 'utf8'));
    });
    expect(violations).toEqual([]);
  });
});

describe('the page holds strategy profiles, not strategies', () => {
  // The registry and every module with a `-profile.ts` beside it hold compaction code; the page's
  // bundle stays small only while the page (state, ui) reaches strategies through the catalog.
  const strategiesDir = join(srcDir, 'core/strategies');
  const withCode = new Set([
    'strategy-registry.ts',
    ...readdirSync(strategiesDir)
      .filter((entry) => entry.endsWith('-profile.ts'))
      .map((entry) => entry.replace(/-profile\.ts$/, '.ts')),
  ]);

  it('knows which modules hold the code', () => {
    expect([...withCode]).toEqual(
      expect.arrayContaining(['strategy-registry.ts', 'hermes.ts', 'codex-cli.ts']),
    );
  });

  it('imports neither the registry nor a strategy module in src/state or src/ui', () => {
    const offenders = sourceFiles(srcDir)
      .filter((path) => /^(state|ui)\//.test(relative(srcDir, path)))
      .flatMap((path) =>
        [...readFileSync(path, 'utf8').matchAll(/^\s*import\s+(?!type\b)[^'"]*['"]([^'"]+)['"]/gm)]
          .map((match) => match[1]!)
          .filter((specifier) => /core\/strategies\//.test(specifier))
          .filter((specifier) => withCode.has(specifier.split('/').pop()!))
          .map((specifier) => `${relative(srcDir, path)} imports ${specifier}`),
      );
    expect(offenders).toEqual([]);
  });
});
