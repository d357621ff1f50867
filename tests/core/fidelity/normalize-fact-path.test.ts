import { describe, expect, it } from 'vitest';
import { hasFileExtension, normalizeFactPath } from '#core/fidelity/normalize-fact-path.ts';

describe('normalizeFactPath', () => {
  it.each([
    ['./src/app.ts:12:5', 'src/app.ts'],
    ['src/app.ts(12,5)', 'src/app.ts'],
    ['"/Users/dev/proj/main.py",', '/Users/dev/proj/main.py'],
    ['docs/guide.md#L10-L20', 'docs/guide.md'],
    ['C:\\repo\\src\\index.ts', 'C:/repo/src/index.ts'],
    ['src//lib/main.py', 'src/lib/main.py'],
    ['~/notes.txt', '~/notes.txt'],
    ['README.md', 'README.md'],
    ['a/b/c', 'a/b/c'],
    ['/etc/hosts', '/etc/hosts'],
    ['Makefile', 'Makefile'],
  ])('%s → %s', (raw, path) => {
    expect(normalizeFactPath(raw)).toBe(path);
  });

  it.each([
    'and/or',
    'km/h',
    '1/2',
    '/compact',
    'e.g.',
    'v1.2.3',
    'os.path',
    'Node.js',
    'https://x.org/a',
    '/dev/null',
  ])('rejects %s', (raw) => {
    expect(normalizeFactPath(raw)).toBeNull();
  });

  it('accepts any plausible value when the text is known to be a path', () => {
    expect(normalizeFactPath('src/utils', { known: true })).toBe('src/utils');
    expect(normalizeFactPath('src/utils')).toBeNull();
  });
});

describe('hasFileExtension', () => {
  it('knows source and document extensions only', () => {
    expect(hasFileExtension('test_cache.py')).toBe(true);
    expect(hasFileExtension('report.pdf')).toBe(true);
    expect(hasFileExtension('example.com')).toBe(false);
    expect(hasFileExtension('.env')).toBe(false);
  });
});
