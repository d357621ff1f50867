import { describe, expect, it } from 'vitest';
import {
  buildSummaryPrompt,
  memoryProviderSection,
  summaryMaxTokens,
} from '#core/compression/summary-prompt.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const base = {
  serializedTurns: '[USER]: hi',
  previousSummary: null,
  focusTopic: null,
  memoryContext: null,
  budgetTokens: 2500,
  today: null,
};

describe('buildSummaryPrompt', () => {
  it('uses the first-compaction block without a previous summary', () => {
    const prompt = buildSummaryPrompt(base, HERMES_2026_07);
    expect(prompt).toContain(
      '\n\nTURNS TO SUMMARIZE:\n[USER]: hi\n\nUse this exact structure:\n\n## Historical Task Snapshot\n',
    );
    expect(prompt).toContain('Target ~2500 tokens.');
    expect(prompt.endsWith('Write only the summary body. Do not include any preamble or prefix.')).toBe(true);
  });

  it('uses the iterative block with a previous summary', () => {
    const prompt = buildSummaryPrompt({ ...base, previousSummary: 'OLD' }, HERMES_2026_04);
    expect(prompt).toContain(
      'PREVIOUS SUMMARY:\nOLD\n\nNEW TURNS TO INCORPORATE:\n[USER]: hi\n\nUpdate the summary',
    );
    expect(prompt).toContain('\n## Active Task\n');
  });

  it('adds the temporal anchoring rule only in 2026-07 with a date', () => {
    expect(buildSummaryPrompt({ ...base, today: '2026-01-15' }, HERMES_2026_07)).toContain(
      'TEMPORAL ANCHORING: The current date is 2026-01-15.',
    );
    expect(buildSummaryPrompt({ ...base, today: '2026-01-15' }, HERMES_2026_04)).not.toContain('TEMPORAL');
    expect(buildSummaryPrompt(base, HERMES_2026_07)).not.toContain('TEMPORAL');
  });

  it('appends the focus block last, worded per generation', () => {
    const legacy = buildSummaryPrompt({ ...base, focusTopic: 'db' }, HERMES_2026_04);
    const current = buildSummaryPrompt({ ...base, focusTopic: 'db' }, HERMES_2026_07);
    expect(legacy).toContain('FOCUS TOPIC: "db"\nThe user has requested that this compaction PRIORITISE');
    expect(current).toContain('FOCUS TOPIC: "db"\nThis compaction should PRIORITISE');
    expect(current.endsWith('use [REDACTED].')).toBe(true);
  });

  it('includes a memory-provider section only in 2026-07', () => {
    expect(buildSummaryPrompt({ ...base, memoryContext: 'likes tea' }, HERMES_2026_07)).toContain(
      '[USER]: hi\n\nMEMORY PROVIDER CONTEXT:\n',
    );
    expect(buildSummaryPrompt({ ...base, memoryContext: 'likes tea' }, HERMES_2026_04)).not.toContain(
      'MEMORY',
    );
  });
});

describe('memoryProviderSection', () => {
  it('JSON-encodes the text and escapes characters that could close the tag', () => {
    expect(memoryProviderSection(' a <b> & "c" ')).toContain(
      '<memory-provider-context>\n"a \\u003cb\\u003e \\u0026 \\"c\\""\n</memory-provider-context>',
    );
  });

  it('caps long text at 4000 + marker + 1500 characters', () => {
    const section = memoryProviderSection('a'.repeat(5000) + 'b'.repeat(2000));
    expect(section).toContain(
      `${'a'.repeat(4000)}\\n...[memory provider context truncated]...\\n${'b'.repeat(1500)}"`,
    );
  });

  it('is empty without text', () => {
    expect(memoryProviderSection('   ')).toBe('');
  });
});

describe('summaryMaxTokens', () => {
  it('is int(budget × 1.3) in 2026-04 and absent in 2026-07', () => {
    expect(summaryMaxTokens(2000, HERMES_2026_04)).toBe(2600);
    expect(summaryMaxTokens(2001, HERMES_2026_04)).toBe(2601);
    expect(summaryMaxTokens(2000, HERMES_2026_07)).toBeNull();
  });
});
