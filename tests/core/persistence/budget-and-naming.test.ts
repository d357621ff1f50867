import { describe, expect, it } from 'vitest';
import { budgetForContextWindow, resolveThreshold, DEFAULT_BUDGET } from '#core/persistence/budget-config.ts';
import { buildPersistedMessage, pythonFixed } from '#core/persistence/build-persisted-message.ts';
import { generatePreview } from '#core/persistence/generate-preview.ts';
import { pythonShellQuote } from '#core/persistence/python-shell-quote.ts';
import { posixDirname, sandboxWriteCommand } from '#core/persistence/sandbox-write-command.ts';
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

  it.each([HERMES_2026_04, HERMES_2026_07])(
    'pins read_file to infinity before any override ($name)',
    (preset) => {
      const config = {
        ...DEFAULT_BUDGET,
        defaultResultSize: 10,
        toolOverrides: { read_file: 5 },
        registryThresholds: { read_file: 7 },
      };
      expect(resolveThreshold('read_file', config, preset)).toBe(Infinity);
      expect(resolveThreshold('read_file', DEFAULT_BUDGET, preset)).toBe(Infinity);
    },
  );

  it('caps a registry limit at the default size in 2026-07 only', () => {
    const config = { ...DEFAULT_BUDGET, defaultResultSize: 50, registryThresholds: { web_extract: 80 } };
    expect(resolveThreshold('web_extract', config, HERMES_2026_07)).toBe(50);
    expect(resolveThreshold('web_extract', config, HERMES_2026_04)).toBe(80);
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

  it('names a missing or empty id tool_result in 2026-07 and writes Python str() of it in 2026-04', () => {
    expect(sanitizePersistedFileName('', HERMES_2026_07)).toBe('tool_result.txt');
    expect(sanitizePersistedFileName(null, HERMES_2026_07)).toBe('tool_result.txt');
    expect(sanitizePersistedFileName('', HERMES_2026_04)).toBe('.txt');
    expect(sanitizePersistedFileName(null, HERMES_2026_04)).toBe('None.txt');
    expect(sanitizePersistedFileName(12, HERMES_2026_04)).toBe('12.txt');
  });

  it('falls back to tool_result when nothing safe is left, with the digest of the raw id', () => {
    expect(sanitizePersistedFileName('...', HERMES_2026_07)).toMatch(/^tool_result_[0-9a-f]{12}\.txt$/);
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
    expect(sandboxWriteCommand('/tmp/r/a.txt', 'body', HERMES_2026_07)).toBe(
      'mkdir -p /tmp/r && cat > /tmp/r/a.txt',
    );
    expect(sandboxWriteCommand('/tmp/r/a.txt', 'body', HERMES_2026_04)).toBe(
      "mkdir -p /tmp/r && cat > /tmp/r/a.txt << 'HERMES_PERSIST_EOF'\nbody\nHERMES_PERSIST_EOF",
    );
  });

  // Expected commands written by hand from shlex.quote and os.path.dirname (checked in Python 3).
  it.each([
    [
      'a space and ..',
      '/tmp/hermes-results/../evil id.txt',
      "mkdir -p /tmp/hermes-results/.. && cat > '/tmp/hermes-results/../evil id.txt'",
    ],
    [
      '$( ) and ;',
      '/tmp/hermes-results/call_$(touch x);.txt',
      "mkdir -p /tmp/hermes-results && cat > '/tmp/hermes-results/call_$(touch x);.txt'",
    ],
    [
      'a single quote',
      "/tmp/hermes-results/it's.txt",
      `mkdir -p /tmp/hermes-results && cat > '/tmp/hermes-results/it'"'"'s.txt'`,
    ],
    [
      'a slash',
      '/tmp/hermes-results/a/b.txt',
      'mkdir -p /tmp/hermes-results/a && cat > /tmp/hermes-results/a/b.txt',
    ],
    [
      'a backtick',
      '/tmp/hermes-results/`id`.txt',
      "mkdir -p /tmp/hermes-results && cat > '/tmp/hermes-results/`id`.txt'",
    ],
  ])('quotes a path with %s and makes its own directory', (_kind, path, command) => {
    expect(sandboxWriteCommand(path, 'x', HERMES_2026_07)).toBe(command);
    expect(sandboxWriteCommand(path, 'x', HERMES_2026_04)).toBe(
      `${command} << 'HERMES_PERSIST_EOF'\nx\nHERMES_PERSIST_EOF`,
    );
  });

  it('picks another heredoc delimiter when the content contains the usual one', () => {
    const content = 'before\nHERMES_PERSIST_EOF\nafter';
    const command = sandboxWriteCommand('/tmp/r/a.txt', content, HERMES_2026_04);
    const marker = /<< '([^']+)'/.exec(command)![1]!;
    expect(marker).toMatch(/^HERMES_PERSIST_[0-9a-f]{8}$/);
    expect(content).not.toContain(marker);
    expect(command.endsWith(`\n${content}\n${marker}`)).toBe(true);
    expect(sandboxWriteCommand('/tmp/r/a.txt', content, HERMES_2026_04)).toBe(command);
  });
});

describe('posixDirname', () => {
  it('is os.path.dirname', () => {
    expect(
      ['/tmp/r/a.txt', '/tmp/r//a.txt', '/a.txt', '//a', 'a.txt', '/tmp/r/', ''].map(posixDirname),
    ).toEqual(['/tmp/r', '/tmp/r', '/', '//', '', '/tmp/r', '']);
  });
});

describe('pythonShellQuote', () => {
  it('is shlex.quote', () => {
    expect(pythonShellQuote('')).toBe("''");
    expect(pythonShellQuote('/tmp/hermes-results/call_1.txt')).toBe('/tmp/hermes-results/call_1.txt');
    expect(pythonShellQuote('a@b%c+d=e:f,g')).toBe('a@b%c+d=e:f,g');
    expect(pythonShellQuote('é')).toBe("'é'");
    expect(pythonShellQuote("a'b")).toBe(`'a'"'"'b'`);
  });
});
