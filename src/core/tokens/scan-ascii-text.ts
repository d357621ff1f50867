/**
 * Whole-string scans of long ASCII texts in WebAssembly (`text-scan.wat`): the text is encoded
 * into the module's memory with `TextEncoder.encodeInto` (native, about 0.4 ns a character) and
 * read there. JavaScript loops over a string's characters run at 3–4 ns a character on the
 * machines this was measured on; a transcript's rough size and the survival of its facts read
 * every character of it, again and again.
 *
 * - `asciiReprLength`: Python's `len(repr(text))` (Hermes sizes messages as `len(str(message))`),
 *   16 bytes a step: ~0.6 ns a character on the 22.8 MB of the 10,000-message bench session,
 *   where regex tests and `indexOf` counts took ~2.4 ns.
 * - `createAsciiWordScanner`: the words of a text whose hash passes a filter, for the survival
 *   scan of `find-surviving-facts.ts`.
 *
 * Only texts that are all ASCII are scanned (one byte a character, so byte offsets are character
 * offsets); anything else, and any runtime without WebAssembly (or a page whose
 * Content-Security-Policy forbids compiling it), gets `null` and the caller's exact JavaScript
 * path. Core stays pure: the module is compiled from bytes in this file's import graph and
 * touches nothing outside its own memory.
 */
import { instantiateWasm, type TextIntoBytes, type WasmMemory } from '../shared/instantiate-wasm.ts';
import { TEXT_SCAN_WASM } from './text-scan-module.ts';

/** Below this length the JavaScript paths are as fast as encoding and calling into the module. */
export const ASCII_SCAN_MIN_LENGTH = 256;
/** Texts are encoded in pieces of about this many characters, so the module's memory stays small. */
const CHUNK_CHARS = 1 << 20;
const PAGE_BYTES = 65536;
/** The module's memory: a word filter, the word candidates found, then the text. */
const FILTER_OFFSET = 1024;
const FILTER_BYTES = 1 << 16;
const CANDIDATES_OFFSET = FILTER_OFFSET + FILTER_BYTES;
/** Word candidates returned per call (three i32 each). */
const CANDIDATES_PER_CALL = 4096;
const TEXT_OFFSET = 2 * PAGE_BYTES;
if (CANDIDATES_OFFSET + 12 * CANDIDATES_PER_CALL > TEXT_OFFSET)
  throw new Error('text-scan memory layout overlaps');

interface WasmGlobal {
  readonly value: number;
}

interface TextScanExports {
  readonly memory: WasmMemory;
  readonly repr_scan: (pointer: number, length: number) => number;
  readonly escapes: WasmGlobal;
  readonly single_quotes: WasmGlobal;
  readonly double_quotes: WasmGlobal;
  readonly word_candidates: (
    pointer: number,
    length: number,
    from: number,
    filter: number,
    out: number,
    cap: number,
  ) => number;
  readonly resume_at: WasmGlobal;
}

interface Scanner {
  readonly exports: TextScanExports;
  readonly encoder: TextIntoBytes;
  /** The module's memory from `TEXT_OFFSET` on, where texts are encoded. */
  readonly textBytes: Uint8Array;
  readonly filterBytes: Uint8Array;
  readonly candidates: Int32Array;
  /** The filter `filterBytes` holds now (filters are loaded by identity, once per scanner). */
  loadedFilter: Uint8Array | null;
}

/** undefined: not tried yet; null: unavailable in this realm. */
let scanner: Scanner | null | undefined;

function loadScanner(): Scanner | null {
  const loaded = instantiateWasm<TextScanExports>(
    TEXT_SCAN_WASM,
    TEXT_OFFSET + CHUNK_CHARS + CUT_SEARCH_CHARS,
  );
  if (loaded === null) return null;
  const buffer = loaded.exports.memory.buffer;
  return {
    exports: loaded.exports,
    encoder: loaded.encoder,
    textBytes: new Uint8Array(buffer, TEXT_OFFSET),
    filterBytes: new Uint8Array(buffer, FILTER_OFFSET, FILTER_BYTES),
    candidates: new Int32Array(buffer, CANDIDATES_OFFSET, 3 * CANDIDATES_PER_CALL),
    loadedFilter: null,
  };
}

/**
 * A character above Latin-1 (a one-byte string has none, and the regex knows it at once): the
 * text is not ASCII, and encoding it (UTF-8 from a two-byte string) only to give up would cost
 * more than this test.
 */
const ABOVE_LATIN1 = /[^\x00-\xff]/;

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
  if (active === null || ABOVE_LATIN1.test(text)) return null;
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

/** Called per word candidate: its start and end in the text and its hash; true stops the scan. */
export type WordCandidateVisitor = (start: number, end: number, hash: number) => boolean;

/** The words of ASCII texts that a filter lets through (see `createAsciiWordScanner`). */
export interface AsciiWordScanner {
  /**
   * Visits the candidates of `text` in order; false when the text was not scanned (not all
   * ASCII, or no place to cut a very long one), so the caller reads it itself.
   */
  scan(text: string, visit: WordCandidateVisitor): boolean;
}

/** Searched past the chunk size for a place to cut a long text between two words. */
const CUT_SEARCH_CHARS = 4096;
const BACKSLASH = 0x5c;

/**
 * Where to end a chunk of `text` that starts at `start`: a position at or after `start +
 * CHUNK_CHARS` whose character is not a word character and does not follow a backslash (so the
 * word scan reaches it exactly, whatever came before), or -1.
 */
function chunkEnd(text: string, start: number): number {
  const limit = Math.min(text.length, start + CHUNK_CHARS + CUT_SEARCH_CHARS);
  for (let at = start + CHUNK_CHARS; at < limit; at++) {
    const code = text.charCodeAt(at);
    const word = (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122) || code === 95;
    if (!word && code < 128 && text.charCodeAt(at - 1) !== BACKSLASH) return at;
  }
  return -1;
}

/**
 * A scanner of the words whose hash's low 16 bits have a non-zero byte in `filter` (65,536
 * bytes), hashed as `find-surviving-facts.ts` hashes them; null when WebAssembly is unavailable.
 */
export function createAsciiWordScanner(filter: Uint8Array): AsciiWordScanner | null {
  if (filter.length !== FILTER_BYTES) throw new Error(`a word filter has ${FILTER_BYTES} bytes`);
  const active = activeScanner();
  if (active === null) return null;
  const exports = active.exports;
  return {
    scan(text, visit) {
      if (ABOVE_LATIN1.test(text)) return false;
      if (active.loadedFilter !== filter) {
        active.filterBytes.set(filter);
        active.loadedFilter = filter;
      }
      let start = 0;
      while (start < text.length) {
        const end = text.length - start > CHUNK_CHARS ? chunkEnd(text, start) : text.length;
        if (end < 0) return false;
        const length = encodeAscii(active, text, start, end);
        if (length < 0) return false;
        let from = 0;
        for (;;) {
          const found = exports.word_candidates(
            TEXT_OFFSET,
            length,
            from,
            FILTER_OFFSET,
            CANDIDATES_OFFSET,
            CANDIDATES_PER_CALL,
          );
          const candidates = active.candidates;
          for (let at = 0; at < 3 * found; at += 3) {
            if (visit(start + candidates[at]!, start + candidates[at + 1]!, candidates[at + 2]!)) return true;
          }
          if (found < CANDIDATES_PER_CALL) break;
          from = exports.resume_at.value;
        }
        start = end;
      }
      return true;
    },
  };
}
