/**
 * Conformance runner (SPEC §2.1):
 *   npm run conformance -- [--preset hermes-2026-04|hermes-2026-07] [--json PATH] [--verbose] [DIR...]
 * Prints `<file>: N passed, M failed, K skipped` per file, then `conformance: …`; exit 1 on any failure.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getPreset, type Preset } from '../core/presets/preset.ts';
import { DEFAULT_PRESET, isPresetName, PRESET_NAMES } from '../core/presets/preset-name.ts';
import { escapeControlCharacters } from '../core/shared/escape-control-characters.ts';
import { loadAdapter } from './conformance/load-adapter.ts';
import { runVectorCase, type CaseResult } from './conformance/run-vector-file.ts';
import type { VectorFile } from './conformance/vector-adapter.ts';

interface Options {
  preset: Preset;
  dirs: string[];
  jsonPath: string | null;
  verbose: boolean;
}

function parseOptions(argv: string[]): Options {
  const projectRoot = resolve(fileURLToPath(import.meta.url), '../../..');
  const options: Options = { preset: getPreset(DEFAULT_PRESET), dirs: [], jsonPath: null, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--preset') {
      const value = argv[++i] ?? '';
      if (!isPresetName(value)) fail(`unknown preset '${value}' (expected ${PRESET_NAMES.join(' or ')})`);
      options.preset = getPreset(value);
    } else if (arg.startsWith('--preset=')) {
      const value = arg.slice('--preset='.length);
      if (!isPresetName(value)) fail(`unknown preset '${value}' (expected ${PRESET_NAMES.join(' or ')})`);
      options.preset = getPreset(value);
    } else if (arg === '--json') {
      options.jsonPath = argv[++i] ?? fail('--json needs a path');
    } else if (arg === '--verbose' || arg === '-v') {
      options.verbose = true;
    } else if (arg.startsWith('--')) {
      fail(`unknown option ${arg}`);
    } else {
      options.dirs.push(arg);
    }
  }
  if (options.dirs.length === 0)
    options.dirs.push(join(projectRoot, '..', 'shared', 'conformance', 'hermes'));
  return options;
}

function fail(message: string): never {
  console.error(`conformance: ${escapeControlCharacters(message)}`);
  process.exit(2);
}

/** One line of the report; file names, case names and reasons come from the vectors, so they are escaped. */
function report(line: string): void {
  console.log(escapeControlCharacters(line));
}

function vectorFilesIn(dir: string): string[] {
  let entries: string[];
  try {
    entries = statSync(dir).isDirectory() ? readdirSync(dir) : [];
  } catch {
    fail(`cannot read directory ${dir}`);
  }
  if (entries.length === 0 && statSync(dir).isFile()) return [dir];
  return entries
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const all: CaseResult[] = [];
  let totals = { passed: 0, failed: 0, skipped: 0 };
  for (const dir of options.dirs) {
    for (const path of vectorFilesIn(dir)) {
      const file = basename(path);
      let vectorFile: VectorFile;
      try {
        vectorFile = JSON.parse(readFileSync(path, 'utf8')) as VectorFile;
        if (!Array.isArray(vectorFile.cases)) throw new Error('no "cases" array');
      } catch (error) {
        report(`${file}: 0 passed, 1 failed, 0 skipped (unreadable: ${(error as Error).message})`);
        totals.failed += 1;
        continue;
      }
      const adapter = await loadAdapter(file);
      if (!adapter) {
        report(
          `${file}: 0 passed, 0 failed, ${vectorFile.cases.length} skipped (unknown vector file: no adapter)`,
        );
        totals.skipped += vectorFile.cases.length;
        continue;
      }
      const counts = { passed: 0, failed: 0, skipped: 0 };
      for (const testCase of vectorFile.cases) {
        const result = await runVectorCase(file, testCase, adapter, options.preset);
        counts[result.status] += 1;
        all.push(result);
        if (result.status === 'failed' || (options.verbose && result.status === 'skipped')) {
          report(`  ${result.status.toUpperCase()} ${file} :: ${result.name}: ${result.reason ?? ''}`);
        }
      }
      report(`${file}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
      totals = {
        passed: totals.passed + counts.passed,
        failed: totals.failed + counts.failed,
        skipped: totals.skipped + counts.skipped,
      };
    }
  }
  console.log(`conformance: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  if (options.jsonPath) {
    writeFileSync(options.jsonPath, JSON.stringify({ preset: options.preset, totals, cases: all }, null, 2));
  }
  process.exit(totals.failed > 0 ? 1 : 0);
}

await main();
