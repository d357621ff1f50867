/**
 * Whole-string scans of long ASCII texts in WebAssembly (`text-scan.wat`): the text is encoded
 * into the module's memory with `TextEncoder.encodeInto` (native, about 0.4 ns a character) and
 * read 16 bytes at a time. A transcript's rough size reads every character of it (Hermes sizes
 * messages as `len(str(message))`); with regex tests and `indexOf` counts that took ~2.4 ns a
 * character on the 22.8 MB of the 10,000-message bench session, with the scan ~0.6 ns.
 *
 * Only texts that are all ASCII are scanned (one byte a character, so byte offsets are character
 * offsets); anything else, and any runtime without WebAssembly (or a page whose
 * Content-Security-Policy forbids compiling it), gets `null` and the caller's exact JavaScript
 * path. Core stays pure: the module is compiled from bytes in this file's import graph and
 * touches nothing outside its own memory.
 */
import { TEXT_SCAN_WASM } from './text-scan-module.ts';

/** Below this length the JavaScript paths are as fast as encoding and calling into the module. */
export const ASCII_SCAN_MIN_LENGTH = 256;
/** Texts are encoded in pieces of this many characters, so the module's memory stays small. */
const CHUNK_CHARS = 1 << 20;
/** The text starts past the module's own first bytes. */
const TEXT_OFFSET = 64;
const PAGE_BYTES = 65536;

interface WasmGlobal {
  readonly value: number;
}

interface TextScanExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly repr_scan: (pointer: number, length: number) => number;
  readonly escapes: WasmGlobal;
  readonly single_quotes: WasmGlobal;
  readonly double_quotes: WasmGlobal;
}

/** What this file uses of the realm's globals (core's lib has neither WebAssembly nor TextEncoder). */
interface ScanRuntime {
  readonly WebAssembly?: {
    readonly Module: new (bytes: Uint8Array) => object;
    readonly Instance: new (module: object, imports?: object) => { readonly exports: unknown };
  };
  readonly TextEncoder?: new () => {
    encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
  };
}

interface Scanner {
  readonly exports: TextScanExports;
  readonly encoder: {
    encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
  };
  /** The module's memory from `TEXT_OFFSET` on, where texts are encoded. */
  readonly textBytes: Uint8Array;
}

/** undefined: not tried yet; null: unavailable in this realm. */
let scanner: Scanner | null | undefined;

function loadScanner(): Scanner | null {
  const runtime = globalThis as ScanRuntime;
  if (!runtime.WebAssembly || !runtime.TextEncoder) return null;
  try {
    const module = new runtime.WebAssembly.Module(TEXT_SCAN_WASM);
    const exports = new runtime.WebAssembly.Instance(module, {}).exports as TextScanExports;
    const needed = TEXT_OFFSET + CHUNK_CHARS;
    const memory = exports.memory;
    if (memory.buffer.byteLength < needed) {
      memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE_BYTES));
    }
    return {
      exports,
      encoder: new runtime.TextEncoder(),
      textBytes: new Uint8Array(memory.buffer, TEXT_OFFSET),
    };
  } catch {
    // A Content-Security-Policy without 'wasm-unsafe-eval', or a runtime without SIMD.
    return null;
  }
}

function activeScanner(): Scanner | null {
  if (scanner === undefined) scanner = loadScanner();
  return scanner;
}

/**
 * Encodes `text[start, end)` at `TEXT_OFFSET`; the number of bytes, or -1 when a character was
 * not ASCII (it took more than one byte, so the piece did not fit byte for byte).
 */
function encodeAscii(active: Scanner, text: string, start: number, end: number): number {
  const piece = start === 0 && end === text.length ? text : text.slice(start, end);
  // Both counts: an encoder that ran out of room stops early, and a non-ASCII character before
  // the stop could make the bytes written equal the piece's length by coincidence.
  const { read, written } = active.encoder.encodeInto(piece, active.textBytes);
  return read === piece.length && written === piece.length ? written : -1;
}

/**
 * `len(repr(text))` for an all-ASCII text without control characters other than tab, newline and
 * carriage return (nor DEL); null for any other text, and when the scan is unavailable.
 */
export function asciiReprLength(text: string): number | null {
  const active = activeScanner();
  if (active === null) return null;
  const exports = active.exports;
  let escapes = 0;
  let singleQuotes = 0;
  let doubleQuotes = 0;
  for (let start = 0; start < text.length; start += CHUNK_CHARS) {
    const length = encodeAscii(active, text, start, Math.min(text.length, start + CHUNK_CHARS));
    if (length < 0 || exports.repr_scan(TEXT_OFFSET, length) !== 0) return null;
    escapes += exports.escapes.value;
    singleQuotes += exports.single_quotes.value;
    doubleQuotes += exports.double_quotes.value;
  }
  // repr picks "…" only when the text has ' and no "; otherwise every ' is escaped.
  const quoteEscapes = singleQuotes > 0 && doubleQuotes === 0 ? 0 : singleQuotes;
  return text.length + 2 + escapes + quoteEscapes;
}
