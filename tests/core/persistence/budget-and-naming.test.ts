import { describe, expect, it } from 'vitest';
import { budgetForContextWindow, resolveThreshold, DEFAULT_BUDGET } from '#core/persistence/budget-config.ts';
import { buildPersistedMessage, pythonFixed } from '#core/persistence/build-persisted-message.ts';
import { generatePreview } from '#core/persistence/generate-preview.ts';
import { sandboxWriteCommand } from '#core/persistence/sandbox-write-command.ts';
import { sanitizePersistedFileName } from '#core/persistence/sanitize-persisted-file-name.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('budgetForContextWindow', () => {
  it('clamps small windows to the minimum budgets', () => {
    expect(budgetForContextWindow(8000, HERMES_2026_07)).toMatchObject({
      defaultResultSize: 8000,
      turnBudget: 16_000,
    });
  });

  it('uses the fixed defaults in 2026-04 and for a missing window', () => {
    expect(budgetForContextWindow(8000, HERMES_2026_04)).toEqual(DEFAULT_BUDGET);
    expect(budgetForContextWindow(null, HERMES_2026_07)).toEqual(DEFAULT_BUDGET);
  });
});

describe('resolveThreshold', () => {
  it('prefers a user override to the default', () => {
    expect(
      resolveThreshold('terminal', { ...DEFAULT_BUDGET, toolOverrides: { terminal: 42 } }, HERMES_2026_07),
    ).toBe(42);
  });
});

describe('generatePreview', () => {
  it('cuts at a newline in the second half of the window, not in the first', () => {
    expect(generatePreview('abcdefgh\nij', 10)).toEqual({ preview: 'abcdefgh\n', hasMore: true });
    expect(generatePreview('ab\ncdefghij', 10)).toEqual({ preview: 'ab\ncdefghi', hasMore: true });
  });

  it('counts code points, not UTF-16 units', () => {
    expect(generatePreview('😀😀😀', 3)).toEqual({ preview: '😀😀😀', hasMore: false });
  });
});

describe('sanitizePersistedFileName', () => {
  it('makes a hostile id safe and unique with a digest', () => {
    expect(sanitizePersistedFileName('../evil id', HERMES_2026_07)).toBe('evil_id_de30f3c53c6a.txt');
  });

  it('keeps a clean id as is', () => {
    expect(sanitizePersistedFileName('call_abc-1.2', HERMES_2026_07)).toBe('call_abc-1.2.txt');
  });

  it('shortens an over-long id and appends a digest', () => {
    const name = sanitizePersistedFileName('a'.repeat(200), HERMES_2026_07);
    expect(name).toMatch(/^a{120}_[0-9a-f]{12}\.txt$/);
  });

  it('used the raw id in 2026-04', () => {
    expect(sanitizePersistedFileName('../evil id', HERMES_2026_04)).toBe('../evil id.txt');
  });
});

describe('buildPersistedMessage', () => {
  it('omits the ellipsis when the preview is the whole content', () => {
    expect(buildPersistedMessage('abc', false, 3, '/p/x.txt')).toContain(
      'Preview (first 3 chars):\nabc\n</persisted-output>',
    );
  });
});

describe('pythonFixed', () => {
  it('rounds exact ties to even like Python', () => {
    expect([pythonFixed(0.25, 1), pythonFixed(0.35, 1), pythonFixed(2.125, 2)]).toEqual([
      '0.2',
      '0.3',
      '2.12',
    ]);
  });
});

describe('sandboxWriteCommand', () => {
  it('pipes the content in 2026-07 and embeds it in a heredoc in 2026-04', () => {
    expect(sandboxWriteCommand('/tmp/r', 'a.txt', 'body', HERMES_2026_07)).toBe(
      'mkdir -p /tmp/r && cat > /tmp/r/a.txt',
    );
    expect(sandboxWriteCommand('/tmp/r', 'a.txt', 'body', HERMES_2026_04)).toBe(
      "mkdir -p /tmp/r && cat > /tmp/r/a.txt << 'HERMES_PERSIST_EOF'\nbody\nHERMES_PERSIST_EOF",
    );
  });
});
