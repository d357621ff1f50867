import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { VectorAdapter } from './vector-adapter.ts';

const adaptersDir = join(dirname(fileURLToPath(import.meta.url)), 'adapters');

/**
 * The adapter for `<name>.json` is `adapters/<name>.ts`, exporting `adapter`.
 * Discovered by file name so a new vector file needs no registry edit; a file with
 * no adapter returns null and is reported by the runner, never a crash.
 */
export async function loadAdapter(vectorFileName: string): Promise<VectorAdapter | null> {
  const base = vectorFileName.replace(/\.json$/, '');
  if (!/^[A-Za-z0-9_-]+$/.test(base)) return null;
  const path = join(adaptersDir, `${base}.ts`);
  if (!existsSync(path)) return null;
  const module = (await import(pathToFileURL(path).href)) as { adapter?: VectorAdapter };
  return module.adapter ?? null;
}
