import { describe, expect, it } from 'vitest';
import {
  dumpsPythonJson,
  parsePythonJson,
  pythonFloatRepr,
  toPythonJsonNode,
} from '#core/trajectory/python-json.ts';

const roundTrip = (text: string): string => {
  const parsed = parsePythonJson(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return dumpsPythonJson(parsed.value);
};

describe('parsePythonJson', () => {
  it('keeps the first position and the last value of a duplicate key', () => {
    expect(roundTrip('{"a":1,"b":2,"a":3}')).toBe('{"a": 3, "b": 2}');
  });

  it('accepts NaN and Infinity like json.loads', () => {
    expect(roundTrip('[NaN, -Infinity, Infinity]')).toBe('[NaN, -Infinity, Infinity]');
  });

  it('rejects control characters inside strings and trailing data', () => {
    expect(parsePythonJson('"a\nb"').ok).toBe(false);
    expect(parsePythonJson('{} x').ok).toBe(false);
  });

  it('keeps big integers exactly', () => {
    expect(roundTrip('12345678901234567890123')).toBe('12345678901234567890123');
  });
});

describe('dumpsPythonJson', () => {
  it('escapes control characters and keeps non-ASCII', () => {
    expect(dumpsPythonJson(toPythonJsonNode('tab\t\u0001 ü "q" \\'))).toBe('"tab\\t\\u0001 ü \\"q\\" \\\\"');
  });
});

describe('pythonFloatRepr', () => {
  it('matches repr(float) around the notation switch points', () => {
    expect([1e16, 1e15, 0.0001, 0.00001, 1.5, -2.0, 123.456].map(pythonFloatRepr)).toEqual([
      '1e+16',
      '1000000000000000.0',
      '0.0001',
      '1e-05',
      '1.5',
      '-2.0',
      '123.456',
    ]);
  });
});
