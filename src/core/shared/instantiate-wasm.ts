/**
 * Core's own WebAssembly modules, compiled from bytes in core's import graph, so the page, the
 * worker and Node get them the same way and nothing is fetched. What a module needs of the realm
 * (`WebAssembly`, and `TextEncoder` to put text into its memory) is reached through a typed view
 * of `globalThis`, since core's lib declares neither; anything that stops it (a runtime without
 * them or without SIMD, a page whose Content-Security-Policy has no 'wasm-unsafe-eval') gives
 * null, and the caller keeps its JavaScript path.
 */

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export interface TextIntoBytes {
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

export interface InstantiatedWasm<Exports> {
  readonly exports: Exports;
  /** A UTF-8 encoder, to write text into the module's memory. */
  readonly encoder: TextIntoBytes;
}

/** What this file uses of the realm's globals. */
interface WasmRuntime {
  readonly WebAssembly?: {
    readonly Module: new (bytes: Uint8Array) => object;
    readonly Instance: new (module: object, imports?: object) => { readonly exports: unknown };
  };
  readonly TextEncoder?: new () => TextIntoBytes;
}

const PAGE_BYTES = 65536;

/**
 * Compiles and instantiates `bytes` (no imports), its exported memory grown to at least
 * `memoryBytes` once, here, so views made of it afterwards stay valid; null where unavailable.
 */
export function instantiateWasm<Exports extends { readonly memory: WasmMemory }>(
  bytes: Uint8Array,
  memoryBytes: number,
): InstantiatedWasm<Exports> | null {
  const runtime = globalThis as WasmRuntime;
  if (!runtime.WebAssembly || !runtime.TextEncoder) return null;
  try {
    const module = new runtime.WebAssembly.Module(bytes);
    const exports = new runtime.WebAssembly.Instance(module, {}).exports as Exports;
    const memory = exports.memory;
    if (memory.buffer.byteLength < memoryBytes) {
      memory.grow(Math.ceil((memoryBytes - memory.buffer.byteLength) / PAGE_BYTES));
    }
    return { exports, encoder: new runtime.TextEncoder() };
  } catch {
    return null;
  }
}
