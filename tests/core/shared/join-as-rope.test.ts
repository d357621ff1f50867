import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinAsRope, ROPE_PIECE_CHARS } from '#core/shared/join-as-rope.ts';

/** Parts around the piece size, so pieces fill, overflow and hold one over-long part alone. */
const part = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc
    .integer({ min: 0, max: 3 * ROPE_PIECE_CHARS })
    .map((length) => 'é→x'.repeat(Math.ceil(length / 3)).slice(0, length)),
);

describe('joinAsRope', () => {
  it('equals Array.prototype.join for any parts and separator (seeded)', () => {
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 60 }),
        fc.constantFrom('', '\n', '\n\n', ', '),
        (parts, separator) => {
          expect(joinAsRope(parts, separator)).toBe(parts.join(separator));
        },
      ),
      { seed: 17, numRuns: 300 },
    );
  });

  it('joins thousands of short parts, the summary prompt case', () => {
    const parts = Array.from({ length: 20_000 }, (_, index) => `[USER]: message ${index} — ✓`);
    expect(joinAsRope(parts, '\n\n')).toBe(parts.join('\n\n'));
  });

  it('gives an empty text for no parts and the part itself for one', () => {
    expect(joinAsRope([], '\n\n')).toBe('');
    expect(joinAsRope(['only'], '\n\n')).toBe('only');
  });
});
