// Assembles the WebAssembly text modules of src/core into the TypeScript modules that carry their
// bytes (the app loads no .wasm file: the bytes are part of the script, so the worker, the page
// and Node get them the same way). `npm run build:wasm`; `--check` exits 1 when a committed
// module is not what its source assembles to (the unit tests run the same comparison).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleWasmModule, WASM_MODULES } from './wasm-modules.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
let stale = 0;
for (const module of WASM_MODULES) {
  const source = readFileSync(join(root, module.source), 'utf8');
  const text = await assembleWasmModule(module, source);
  const target = join(root, module.target);
  let current;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    current = '';
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
