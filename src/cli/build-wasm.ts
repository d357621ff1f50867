// Assembles the WebAssembly text modules of src/core into the TypeScript modules that carry
// their bytes (`build-wasm/wasm-modules.ts`).
//   npm run build:wasm             rewrite every module whose source changed
//   npm run build:wasm -- --check  exit 1 when a committed module is not what its source assembles to
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assembleWasmModule, WASM_MODULES } from './build-wasm/wasm-modules.ts';

const root = join(import.meta.dirname, '../..');
const check = process.argv.includes('--check');
let stale = 0;
for (const module of WASM_MODULES) {
  const text = await assembleWasmModule(module, readFileSync(join(root, module.source), 'utf8'));
  const target = join(root, module.target);
  let current: string | null;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    current = null;
  }
  if (current === text) continue;
  if (check) {
    console.error(`${module.target} is not what ${module.source} assembles to: run npm run build:wasm`);
    stale++;
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${module.target}`);
  }
}
process.exit(stale > 0 ? 1 : 0);
