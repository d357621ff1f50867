import { describe, expect, it } from 'vitest';
import { findPaths } from '#core/fidelity/find-paths.ts';
import { shown, testCollector, texts } from './fact-sink.ts';

describe('findPaths', () => {
  it('finds paths and file names in prose, shown as written and matched normalised', () => {
    const sink = testCollector();
    findPaths('Edited ./src/App.ts:12 and README.md; see /Users/dev/proj/tests/test_api.py.', sink);
    expect(shown(sink.facts())).toEqual([
      'path: ./src/App.ts',
      'path: README.md',
      'path: /Users/dev/proj/tests/test_api.py',
    ]);
    expect(texts(sink.facts(), 'path')).toEqual([
      'src/app.ts',
      'readme.md',
      '/users/dev/proj/tests/test_api.py',
    ]);
  });

  it('leaves out words with slashes, versions, domains and URLs', () => {
    const sink = testCollector();
    findPaths('and/or km/h v1.2.3 example.com https://example.com/a/b/c e.g. 3.14', sink);
    expect(sink.facts()).toEqual([]);
  });

  it('reads a 10 MB run of path characters once, without a fact', () => {
    const sink = testCollector();
    findPaths(`start ${'a/'.repeat(5_000_000)} end`, sink);
    expect(sink.facts()).toEqual([]);
  });
});
