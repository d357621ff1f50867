/** Types of wasm-modules.mjs, for the unit test that checks the committed bytes. */
export interface WasmModule {
  /** The WebAssembly text, relative to the project root. */
  readonly source: string;
  /** The generated TypeScript module of bytes. */
  readonly target: string;
  readonly exportName: string;
}

export const WASM_MODULES: readonly WasmModule[];

export function assembleWasmModule(module: WasmModule, source: string): Promise<string>;
