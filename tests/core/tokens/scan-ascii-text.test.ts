/**
 * The WebAssembly scan behind `pythonStringReprLength` for long ASCII texts: it must give the
 * length of the repr the character-by-character path writes, or decline (null) so that path
 * runs, for every text; and the bytes committed in `text-scan-module.ts` must be what
 * `text-scan.wat` assembles to.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asciiReprLength,
  ASCII_SCAN_MIN_LENGTH,
  createAsciiWordScanner,
} from '#core/tokens/scan-ascii-text.ts';
import { pythonLength } from '#core/tokens/python-length.ts';
import { pythonStringRepr, pythonStringReprLength } from '#core/tokens/python-repr.ts';
import { assembleWasmModule, WASM_MODULES } from '#cli/build-wasm/wasm-modules.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

/** The repr's length in code points, from the text the exact path writes. */
const reprLength = (text: string): number => pythonLength(pythonStringRepr(text));

/** Pieces that exercise every escape, both quotes, the control range and non-ASCII. */
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom("'", '"', '\\', '\n', '\r', '\t', '\x7f', '\x00', '\x1f', ' ') },
  { weight: 1, arbitrary: fc.constantFrom('é', '—', '😀', '\u2028', '\ud800', 'ÿ', '\x85') },
  { weight: 4, arbitrary: fc.constantFrom('plain words ', 'x = "y"\n', "it's ", 'C:\\path\\to ') },
);
const text = fc.array(piece, { minLength: 1, maxLength: 60 }).map((parts) => parts.join(''));

describe('asciiReprLength', () => {
  it('gives the repr length of the exact path, or declines', () => {
    fc.assert(
      fc.property(text, fc.nat({ max: 40 }), (sample, pad) => {
        const padded = sample + 'a'.repeat(pad);
        const scanned = asciiReprLength(padded);
        if (scanned !== null) expect(scanned).toBe(reprLength(padded));
        expect(pythonStringReprLength(padded)).toBe(reprLength(padded));
      }),
      { numRuns: RUNS },
    );
  });

  it('declines exactly the texts with a control character, DEL or a non-ASCII character', () => {
    const plain = `It's a "test" of C:\\dirs\twith\r\nnewlines. `.repeat(20);
    expect(asciiReprLength(plain)).toBe(reprLength(plain));
    for (const odd of ['\x00', '\x08', '\x0b', '\x1b', '\x7f', 'é', '—', '😀']) {
      for (const at of [0, 7, plain.length >> 1, plain.length]) {
        expect(asciiReprLength(plain.slice(0, at) + odd + plain.slice(at))).toBeNull();
      }
    }
  });

  it('counts across block and chunk boundaries (texts longer than the module reads at once)', () => {
    const unit = "ab'c\\d\n";
    for (const length of [
      ASCII_SCAN_MIN_LENGTH,
      4095,
      4096,
      4097,
      (1 << 20) - 1,
      (1 << 20) + 17,
      3_000_001,
    ]) {
      const sample = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
      expect(asciiReprLength(sample)).toBe(reprLength(sample));
    }
    // A quote choice decided only by the last chunk: no " until the very end.
    const long = "'".repeat((1 << 20) + 5) + '"';
    expect(asciiReprLength(long)).toBe(reprLength(long));
    // A non-ASCII character in a later chunk still declines.
    expect(asciiReprLength('a'.repeat((1 << 20) + 3) + 'é')).toBeNull();
  });
});

describe('the WebAssembly modules of src/core', () => {
  it('hold the bytes their .wat sources assemble to (run npm run build:wasm after editing one)', async () => {
    for (const module of WASM_MODULES) {
      const source = readFileSync(new URL(`../../../${module.source}`, import.meta.url), 'utf8');
      const committed = readFileSync(new URL(`../../../${module.target}`, import.meta.url), 'utf8');
      expect(committed).toBe(await assembleWasmModule(module, source));
    }
  });
});

/** The survival scan's words of an ASCII text, read in JavaScript (find-surviving-facts.ts). */
function referenceWords(text: string): [number, number, number][] {
  const words: [number, number, number][] = [];
  const isWord = (code: number): boolean => /[A-Za-z0-9_]/.test(String.fromCharCode(code));
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (!isWord(code)) {
      const next = text.charCodeAt(index + 1);
      index += code === 92 && [110, 116, 114, 34, 92, 47].includes(next) ? 2 : 1;
      continue;
    }
    const start = index;
    let hash = 0;
    while (index < text.length && isWord(text.charCodeAt(index))) {
      const unit = text.charCodeAt(index);
      hash = (Math.imul(hash, 31) + (unit >= 65 && unit <= 90 ? unit + 32 : unit)) & 0x3fffffff;
      index++;
    }
    words.push([start, index, hash]);
  }
  return words;
}

function scannedWords(text: string, filter: Uint8Array): [number, number, number][] | null {
  const scanner = createAsciiWordScanner(filter);
  expect(scanner).not.toBeNull();
  const words: [number, number, number][] = [];
  const scanned = scanner!.scan(text, (start, end, hash) => {
    words.push([start, end, hash]);
    return false;
  });
  return scanned ? words : null;
}

describe('createAsciiWordScanner', () => {
  const everyWord = new Uint8Array(1 << 16).fill(1);
  const asciiText = fc
    .array(
      fc.oneof(
        fc.string({ unit: 'binary-ascii', maxLength: 20 }),
        fc.constantFrom('\\n', '\\"', '\\\\', '\\x', '\\', 'snake_case', 'Mixed42', ' '),
      ),
      { maxLength: 80 },
    )
    .map((parts) => parts.join(''));

  it('finds exactly the words, spans and hashes the JavaScript scan reads', () => {
    fc.assert(
      fc.property(asciiText, (sample) => {
        expect(scannedWords(sample, everyWord)).toEqual(referenceWords(sample));
      }),
      { numRuns: RUNS },
    );
  });

  it('passes only the words the filter lets through, in order, and stops when told to', () => {
    const text = 'alpha beta Gamma delta_1 epsilon alpha';
    const filter = new Uint8Array(1 << 16);
    const kept = referenceWords(text).filter(([start]) => text[start] !== 'b' && text[start] !== 'e');
    for (const [, , hash] of kept) filter[hash & 0xffff] = 1;
    expect(scannedWords(text, filter)).toEqual(kept);
    const scanner = createAsciiWordScanner(filter)!;
    const seen: number[] = [];
    expect(scanner.scan(text, (start) => (seen.push(start), seen.length === 2))).toBe(true);
    expect(seen).toEqual([kept[0]![0], kept[1]![0]]);
  });

  it('reads a text longer than a chunk as one, cutting only between words', () => {
    const unit = 'word\\n snake_case \\\\path/x ';
    const long = unit.repeat(Math.ceil(((1 << 20) * 2.5) / unit.length));
    expect(scannedWords(long, everyWord)).toEqual(referenceWords(long));
    // No place to cut: one 3M-character word is left to the caller, as is a non-ASCII text.
    expect(scannedWords('a'.repeat(3_000_000), everyWord)).toBeNull();
    expect(scannedWords(`café ${'x '.repeat(300)}`, everyWord)).toBeNull();
  });
});
