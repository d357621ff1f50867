/**
 * The WebAssembly scan behind `pythonStringReprLength` for long ASCII texts: it must give the
 * length of the repr the character-by-character path writes, or decline (null) so that path
 * runs, for every text; and the bytes committed in `text-scan-module.ts` must be what
 * `text-scan.wat` assembles to.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiReprLength, ASCII_SCAN_MIN_LENGTH } from '#core/tokens/scan-ascii-text.ts';
import { pythonLength } from '#core/tokens/python-length.ts';
import { pythonStringRepr, pythonStringReprLength } from '#core/tokens/python-repr.ts';
import { assembleWasmModule, WASM_MODULES } from '../../../scripts/wasm-modules.mjs';

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

describe('text-scan-module.ts', () => {
  it('holds the bytes text-scan.wat assembles to (run npm run build:wasm after editing it)', async () => {
    for (const module of WASM_MODULES) {
      const source = readFileSync(new URL(`../../../${module.source}`, import.meta.url), 'utf8');
      const committed = readFileSync(new URL(`../../../${module.target}`, import.meta.url), 'utf8');
      expect(committed).toBe(await assembleWasmModule(module, source));
    }
  });
});
