import { describe, expect, it } from 'vitest';
import { PythonFloat } from '#core/tokens/python-float.ts';
import { pythonJsonDumps, pythonJsonDumpsLength } from '#core/tokens/python-json-dumps.ts';

describe('pythonJsonDumps', () => {
  it('uses Python default separators and keeps non-ASCII unescaped', () => {
    expect(pythonJsonDumps({ a: [1, 'é🙂'], b: null })).toBe('{"a": [1, "é🙂"], "b": null}');
  });

  it('writes floats with Python repr and the special values bare', () => {
    expect(pythonJsonDumps([new PythonFloat(1), 1.5, 1e16 + 2, new PythonFloat(NaN), -Infinity])).toBe(
      '[1.0, 1.5, 10000000000000002, NaN, -Infinity]',
    );
  });

  it('escapes control characters and writes lone surrogates raw', () => {
    expect(pythonJsonDumps('\x00\n"\\\x7f\ud800')).toBe('"\\u0000\\n\\"\\\\\x7f\ud800"');
  });

  it('supports compact separators and sorted keys', () => {
    expect(
      pythonJsonDumps({ b: 1, a: { d: 2, c: 3 } }, { itemSeparator: ',', keySeparator: ':', sortKeys: true }),
    ).toBe('{"a":{"c":3,"d":2},"b":1}');
  });
});

describe('pythonJsonDumpsLength', () => {
  it('counts code points of the dumped text', () => {
    expect(pythonJsonDumpsLength('🙂')).toBe(3);
    expect(pythonJsonDumpsLength([{ type: 'reasoning.text', text: 'abc' }])).toBe(43);
  });
});
