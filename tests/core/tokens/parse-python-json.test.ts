import { describe, expect, it } from 'vitest';
import { parsePythonJson } from '#core/tokens/parse-python-json.ts';
import { PythonFloat } from '#core/tokens/python-float.ts';

const parsed = (text: string): unknown => {
  const result = parsePythonJson(text);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

describe('parsePythonJson', () => {
  it('keeps key order, including integer-like keys JS objects would hoist', () => {
    const value = parsed('{"b": 1, "2": 2, "a": 3}') as Map<string, unknown>;
    expect([...value.keys()]).toEqual(['b', '2', 'a']);
  });

  it('keeps the first position and the last value of a duplicate key', () => {
    expect([...(parsed('{"a": 1, "b": 2, "a": 3}') as Map<string, unknown>)]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('tells floats from ints and keeps big ints exact', () => {
    expect(parsed('[1, 1.0, 1e5, -0, 12345678901234567890]')).toEqual([
      1,
      new PythonFloat(1),
      new PythonFloat(100000),
      -0,
      12345678901234567890n,
    ]);
  });

  it('accepts the NaN and Infinity constants Python accepts', () => {
    expect(parsed('[NaN, Infinity, -Infinity]')).toEqual([
      new PythonFloat(NaN),
      new PythonFloat(Infinity),
      new PythonFloat(-Infinity),
    ]);
  });

  it('decodes escapes, including surrogate pairs', () => {
    expect(parsed('"a\\n\\u00e9\\ud83d\\ude42\\\\"')).toBe('a\né🙂\\');
  });

  it.each(['', '{"a": 1,}', '[1 2]', '"raw\ncontrol"', '{"a": 1} x', '\ufeff{}', '01', "{'a': 1}", '"open'])(
    'rejects %j as json.loads does',
    (text) => {
      expect(parsePythonJson(text).ok).toBe(false);
    },
  );

  it('allows surrounding JSON whitespace', () => {
    expect(parsed(' \n\t{"a" : [ ] }\r\n')).toEqual(new Map([['a', []]]));
  });
});
