import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinAsRope } from '#core/shared/join-as-rope.ts';

/**
 * Empty, short (under V8's 13-character rope minimum, so `+` copies them) and long parts, one-
 * and two-byte, so the chain mixes flat concatenations with ropes at every level.
 */
const part = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.integer({ min: 0, max: 100_000 }).map((length) => 'é→x'.repeat(Math.ceil(length / 3)).slice(0, length)),
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

  it('reads back inside the result as the joined text does (a regex and indexOf on the rope)', () => {
    const parts = Array.from({ length: 5_001 }, (_, index) => `part ${index} ${'y'.repeat(index % 97)}`);
    const rope = joinAsRope(parts, '\n\n');
    const joined = parts.join('\n\n');
    expect(rope.length).toBe(joined.length);
    expect(rope.indexOf('part 5000')).toBe(joined.indexOf('part 5000'));
    expect(/part 2500 y+\n\npart 2501/.exec(rope)?.index).toBe(
      /part 2500 y+\n\npart 2501/.exec(joined)?.index,
    );
  });

  it('gives an empty text for no parts and the part itself for one', () => {
    expect(joinAsRope([], '\n\n')).toBe('');
    expect(joinAsRope(['only'], '\n\n')).toBe('only');
  });
});
