import { describe, expect, it } from 'vitest';
import {
  HISTORICAL_SUMMARY_PREFIXES,
  LEGACY_SUMMARY_PREFIX,
  MERGED_PRIOR_CONTEXT_HEADER,
  MERGED_SUMMARY_DELIMITER,
  SUMMARY_END_MARKER,
  SUMMARY_PREFIX_2026_04,
  SUMMARY_PREFIX_2026_07,
  compressionNote,
  isContextSummaryContent,
  repeatedCompressionWarning,
  stripSummaryPrefix,
  withSummaryPrefix,
} from '#core/compression/markers.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('isContextSummaryContent', () => {
  it('recognises the current, legacy and historical prefixes in 2026-07', () => {
    for (const prefix of [SUMMARY_PREFIX_2026_07, LEGACY_SUMMARY_PREFIX, ...HISTORICAL_SUMMARY_PREFIXES]) {
      expect(isContextSummaryContent(`  ${prefix}\nbody`, HERMES_2026_07)).toBe(true);
    }
  });

  it('looks past the merge delimiter of a merged summary in 2026-07', () => {
    const merged = `${MERGED_PRIOR_CONTEXT_HEADER}\nhello\n\n${MERGED_SUMMARY_DELIMITER}\n\n${SUMMARY_PREFIX_2026_07}\nbody`;
    expect(isContextSummaryContent(merged, HERMES_2026_07)).toBe(true);
    expect(isContextSummaryContent(merged, HERMES_2026_04)).toBe(false);
  });

  it('reads text parts of list content', () => {
    expect(
      isContextSummaryContent([{ type: 'text', text: `${LEGACY_SUMMARY_PREFIX} x` }], HERMES_2026_04),
    ).toBe(true);
  });

  it('does not take ordinary text for a summary', () => {
    expect(isContextSummaryContent('please summarise [CONTEXT SUMMARY]: later', HERMES_2026_07)).toBe(false);
    expect(isContextSummaryContent(null, HERMES_2026_07)).toBe(false);
  });
});

describe('stripSummaryPrefix', () => {
  it('drops the prefix, merged prior content and the end marker (2026-07)', () => {
    const merged = `${MERGED_PRIOR_CONTEXT_HEADER}\nold\n\n${MERGED_SUMMARY_DELIMITER}\n\n${SUMMARY_PREFIX_2026_07}\nBODY\n\n${SUMMARY_END_MARKER}`;
    expect(stripSummaryPrefix(merged, HERMES_2026_07)).toBe('BODY');
  });

  it('strips only the legacy and 2026-04 prefixes in 2026-04', () => {
    expect(stripSummaryPrefix(`${LEGACY_SUMMARY_PREFIX}  PRIOR`, HERMES_2026_04)).toBe('PRIOR');
    expect(stripSummaryPrefix(`${SUMMARY_PREFIX_2026_04}\nB`, HERMES_2026_04)).toBe('B');
  });
});

describe('withSummaryPrefix', () => {
  it('re-prefixes a body with the preset prefix and a newline', () => {
    expect(withSummaryPrefix(`${LEGACY_SUMMARY_PREFIX} body`, HERMES_2026_07)).toBe(
      `${SUMMARY_PREFIX_2026_07}\nbody`,
    );
  });

  it('returns the bare prefix for an empty body', () => {
    expect(withSummaryPrefix('   ', HERMES_2026_04)).toBe(SUMMARY_PREFIX_2026_04);
  });
});

describe('compressionNote', () => {
  it('adds the memory sentence only in 2026-07', () => {
    expect(compressionNote(HERMES_2026_04)).toMatch(/re-doing work\.\]$/);
    expect(compressionNote(HERMES_2026_07)).toMatch(/regardless of compaction\.\]$/);
  });
});

describe('repeatedCompressionWarning', () => {
  it('names the count with two spaces after the emoji', () => {
    expect(repeatedCompressionWarning(3)).toBe(
      '⚠️  Session compressed 3 times — accuracy may degrade. Consider /new to start fresh.',
    );
  });
});
