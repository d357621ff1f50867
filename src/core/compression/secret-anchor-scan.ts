/**
 * The secret screen in WebAssembly (`secret-scan.wat`): a text is encoded into the module's
 * memory with `TextEncoder.encodeInto` (UTF-8), the module finds the anchors that pass its byte
 * conditions (candidates) and reports their UTF-16 indices, and only those are checked by the
 * screen's regex, at their index. The regex's own scan stops at every one of the ~1.5 million
 * anchor characters (`_ - = : A S B J`) of the 10,000-message bench session's 22.8 MB, ~1.75 ns
 * a character in all; the module passes ~1,000 on (it compares whole names where a pair of bytes
 * let through ~26,000).
 *
 * A text longer than the module's area is left to the caller, as is everything in a runtime
 * without WebAssembly SIMD (or a page whose Content-Security-Policy forbids compiling it). Core
 * stays pure: the module is compiled from bytes in this file's import graph and touches nothing
 * outside its own memory.
 */
import { instantiateWasm, type TextIntoBytes, type WasmMemory } from '../shared/instantiate-wasm.ts';
import { SECRET_SCAN_WASM } from './secret-scan-module.ts';

/** What the module's conditions read (layout in `secret-scan.wat`). */
export interface SecretAnchorTables {
  /** Bits per pair of bytes, indexed `first | second << 8`. */
  readonly pairs: Uint16Array;
  /** Stem bits per 16-bit hash of a key-character run. */
  readonly stems: Uint8Array;
  /** Per anchor byte, the pair bits that let it through: before it (low 16 bits), after (high). */
  readonly masks: Uint32Array;
}

/** The module's own table (`$lanes`), built when it is instantiated: the caller's areas follow. */
const LANES_BYTES = 8192;
const TABLE_OFFSET = LANES_BYTES;
const PAIR_TABLE_BYTES = 2 * 65536;
const STEM_TABLE_BYTES = 65536;
const MASK_TABLE_BYTES = 4 * 256;
const CANDIDATES_OFFSET = TABLE_OFFSET + PAIR_TABLE_BYTES + STEM_TABLE_BYTES + MASK_TABLE_BYTES;
const CANDIDATES_PER_CALL = 16384;
/** The module's own working area: a chunk's anchor offsets and its blocks' shifts. */
const SCRATCH_OFFSET = CANDIDATES_OFFSET + 4 * CANDIDATES_PER_CALL;
const SCRATCH_BYTES = 24608;
/** Zero bytes before and after the texts: the module's conditions read a few bytes around. */
const PAD_BYTES = 16;
const TEXT_OFFSET = SCRATCH_OFFSET + SCRATCH_BYTES + PAD_BYTES;
/** The most UTF-8 bytes of text the module scans at once; a longer text is left to the caller. */
export const SECRET_SCAN_TEXT_BYTES = 1 << 20;

interface SecretScanExports {
  readonly memory: WasmMemory;
  readonly secret_candidates: (
    pointer: number,
    length: number,
    from: number,
    shift: number,
    table: number,
    out: number,
    cap: number,
    scratch: number,
  ) => number;
  readonly resume_at: { readonly value: number };
  readonly resume_shift: { readonly value: number };
}

interface Scanner {
  readonly exports: SecretScanExports;
  readonly encoder: TextIntoBytes;
  readonly memory: Uint8Array;
  readonly candidates: Int32Array;
  /** The tables the module's memory holds now (loaded by identity, once per scanner). */
  loadedTables: SecretAnchorTables | null;
}

/** undefined: not tried yet; null: unavailable in this realm. */
let scanner: Scanner | null | undefined;

const NO_CANDIDATES = new Int32Array(0);

function loadScanner(): Scanner | null {
  // The longest text and the zeroed padding after it.
  const loaded = instantiateWasm<SecretScanExports>(
    SECRET_SCAN_WASM,
    TEXT_OFFSET + SECRET_SCAN_TEXT_BYTES + 2 * PAD_BYTES,
  );
  if (loaded === null) return null;
  const buffer = loaded.exports.memory.buffer;
  return {
    exports: loaded.exports,
    encoder: loaded.encoder,
    memory: new Uint8Array(buffer),
    candidates: new Int32Array(buffer, CANDIDATES_OFFSET, CANDIDATES_PER_CALL),
    loadedTables: null,
  };
}

/**
 * The candidates of `texts[start, end)`, in order, as indices into those texts joined with `\0`
 * (each text is encoded after a zero byte, which the screen's conditions treat as a text's edge,
 * as its regex treats a text's end; so index `i` is in the first text when under its length, and
 * so on); null when they were not scanned (over `SECRET_SCAN_TEXT_BYTES` in UTF-8, or no module
 * in this realm).
 *
 * Returned rather than passed to a callback: the screen and `possibleSecretPatterns` each had a
 * callback of their own, and code V8 (Node 20) had optimised for one deopted at the call when
 * the other came, in one run once for each of ~150 redacted texts.
 */
export function scanSecretCandidates(
  texts: readonly string[],
  start: number,
  end: number,
  tables: SecretAnchorTables,
): Int32Array | null {
  if (scanner === undefined) scanner = loadScanner();
  const active = scanner;
  if (active === null) return null;
  if (active.loadedTables !== tables) {
    active.memory.set(
      new Uint8Array(tables.pairs.buffer, tables.pairs.byteOffset, PAIR_TABLE_BYTES),
      TABLE_OFFSET,
    );
    active.memory.set(tables.stems, TABLE_OFFSET + PAIR_TABLE_BYTES);
    active.memory.set(
      new Uint8Array(tables.masks.buffer, tables.masks.byteOffset, MASK_TABLE_BYTES),
      TABLE_OFFSET + PAIR_TABLE_BYTES + STEM_TABLE_BYTES,
    );
    active.loadedTables = tables;
  }
  const memory = active.memory;
  const limit = TEXT_OFFSET + SECRET_SCAN_TEXT_BYTES;
  // Encoded one by one rather than joined first: no joined copy of the texts to collect.
  let offset = TEXT_OFFSET;
  for (let index = start; index < end; index++) {
    if (index > start) {
      if (offset >= limit) return null;
      memory[offset++] = 0;
    }
    const text = texts[index]!;
    if (text.length === 0) continue;
    if (text.length > limit - offset) return null;
    const { read, written } = active.encoder.encodeInto(text, memory.subarray(offset, limit));
    // The encoder stops where the area is full: texts it did not read whole are left to the caller.
    if (read !== text.length) return null;
    offset += written;
  }
  const written = offset - TEXT_OFFSET;
  memory.fill(0, offset, offset + 2 * PAD_BYTES);
  let from = 0;
  let shift = 0;
  // Candidates are rare (~1,000 in the 22.8 MB of the bench session): one call usually finds
  // them all, and the list is copied out of the module's memory, which the next scan reuses.
  let candidates = NO_CANDIDATES;
  for (;;) {
    const found = active.exports.secret_candidates(
      TEXT_OFFSET,
      written,
      from,
      shift,
      TABLE_OFFSET,
      CANDIDATES_OFFSET,
      CANDIDATES_PER_CALL,
      SCRATCH_OFFSET,
    );
    const more = active.candidates.subarray(0, found);
    if (candidates.length === 0) candidates = more.slice();
    else {
      const joined = new Int32Array(candidates.length + found);
      joined.set(candidates);
      joined.set(more, candidates.length);
      candidates = joined;
    }
    if (active.exports.resume_at.value >= written) return candidates;
    from = active.exports.resume_at.value;
    shift = active.exports.resume_shift.value;
  }
}
