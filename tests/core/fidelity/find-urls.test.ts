import { describe, expect, it } from 'vitest';
import { findUrls, urlMatchText } from '#core/fidelity/find-urls.ts';
import { shown, testCollector, texts } from './fact-sink.ts';

describe('findUrls', () => {
  it('finds http and https URLs without trailing sentence punctuation', () => {
    const sink = testCollector();
    findUrls(
      'See https://docs.python.org/3/library/re.html. Also (http://example.com/a_(b)) and https://x.io/y?q=1,',
      sink,
    );
    expect(shown(sink.facts())).toEqual([
      'url: https://docs.python.org/3/library/re.html',
      'url: http://example.com/a_(b)',
      'url: https://x.io/y?q=1',
    ]);
  });

  it('matches without the scheme, www. or a trailing slash', () => {
    expect(urlMatchText('https://www.Example.com/Docs/')).toBe('example.com/docs');
    const sink = testCollector();
    findUrls('https://www.example.com/docs/', sink);
    expect(texts(sink.facts(), 'url')).toEqual(['example.com/docs']);
  });

  it('ignores http inside a word and a bare scheme', () => {
    const sink = testCollector();
    findUrls('xhttps://a.b/c and https:// alone', sink);
    expect(sink.facts()).toEqual([]);
  });
});
