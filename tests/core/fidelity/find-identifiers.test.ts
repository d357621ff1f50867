import { describe, expect, it } from 'vitest';
import {
  addSymbolValue,
  findCodeDeclarations,
  findProseIdentifiers,
} from '#core/fidelity/find-identifiers.ts';
import { shown, testCollector, texts } from './fact-sink.ts';

describe('findCodeDeclarations', () => {
  it('finds declared functions, classes and types in several languages', () => {
    const sink = testCollector();
    findCodeDeclarations(
      [
        'class CacheManager(BaseManager):',
        '    def get_cached(self, key):',
        'export async function loadUser(id: string) {',
        'interface UserProps {',
        'pub fn parse_args<T>(input: T) {}',
        'func Serve(addr string) {',
        'enum Color { Red }',
      ].join('\n'),
      sink,
    );
    expect(texts(sink.facts(), 'identifier')).toEqual([
      'cachemanager',
      'get_cached',
      'loaduser',
      'userprops',
      'parse_args',
      'serve',
      'color',
    ]);
  });

  it('does not take "function" or "class" in a comment for a declaration', () => {
    const sink = testCollector();
    findCodeDeclarations('# this function returns the class name\n// the class is big', sink);
    expect(sink.facts()).toEqual([]);
  });
});

describe('findProseIdentifiers', () => {
  it('finds backticked symbols, snake_case, camelCase, two-hump PascalCase and calls', () => {
    const sink = testCollector();
    findProseIdentifiers(
      'Fixed `cached_data.version` in CacheManager, then called pytest.skip() and getUserById; `Optional` too.',
      sink,
    );
    expect(shown(sink.facts())).toEqual([
      'identifier: cached_data.version',
      'identifier: Optional',
      'identifier: CacheManager',
      'identifier: pytest.skip()',
      'identifier: getUserById',
    ]);
    // A call is matched without its parentheses.
    expect(texts(sink.facts(), 'identifier')).toContain('pytest.skip');
  });

  it('leaves out English words, product names, keywords and dotted words without a call', () => {
    const sink = testCollector();
    findProseIdentifiers(
      'The `ty` checker in TypeScript on GitHub uses os.path, `None` and Node.js. Hello World.',
      sink,
    );
    expect(sink.facts()).toEqual([]);
  });

  it('takes no symbol out of a word that starts with a digit', () => {
    const sink = testCollector();
    findProseIdentifiers('the 2x2_all_ones matrix', sink);
    expect(sink.facts()).toEqual([]);
  });

  it('takes a backticked path for a path, and a directory inside a path for nothing', () => {
    const sink = testCollector();
    findProseIdentifiers('Open `src/app_main.py` in my_project/src', sink);
    expect(shown(sink.facts())).toEqual(['path: src/app_main.py']);
  });
});

describe('addSymbolValue', () => {
  it('adds one distinctive symbol and nothing for a phrase', () => {
    const sink = testCollector();
    addSymbolValue('LintResult', sink);
    addSymbolValue('fastapi background tasks', sink);
    addSymbolValue('count', sink);
    expect(shown(sink.facts())).toEqual(['identifier: LintResult']);
  });
});
