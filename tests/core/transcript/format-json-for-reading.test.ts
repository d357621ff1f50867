import { describe, expect, it } from 'vitest';
import { formatJsonForReading, MAX_READABLE_JSON_CHARS } from '#core/transcript/format-json-for-reading.ts';

describe('formatJsonForReading', () => {
  it('lays out an object with two-space indentation', () => {
    expect(formatJsonForReading('{"bytes_written":211,"dirs_created":false,"path":null}')).toBe(
      '{\n  "bytes_written": 211,\n  "dirs_created": false,\n  "path": null\n}',
    );
  });

  it("shows a string's line breaks as line breaks, continued at the value's indentation", () => {
    const output = JSON.stringify({ stdout: 'collected 3 items\n\ntest_a PASSED', exit_code: 0 });
    expect(output).toContain('\\n');
    expect(formatJsonForReading(output)).toBe(
      '{\n  "stdout": "collected 3 items\n    \n    test_a PASSED",\n  "exit_code": 0\n}',
    );
  });

  it("keeps JSON's escaping for everything but line breaks", () => {
    expect(formatJsonForReading('["say \\"hi\\"\\tnow", "back\\\\slash"]')).toBe(
      '[\n  "say \\"hi\\"\\tnow",\n  "back\\\\slash"\n]',
    );
  });

  it('nests arrays in objects, and empty ones stay on one line', () => {
    expect(formatJsonForReading('{"files":[{"name":"a.txt"}],"empty":[],"none":{}}')).toBe(
      '{\n  "files": [\n    {\n      "name": "a.txt"\n    }\n  ],\n  "empty": [],\n  "none": {}\n}',
    );
  });

  it('leaves text that is not a JSON object or array alone', () => {
    expect(formatJsonForReading('plain output')).toBeNull();
    expect(formatJsonForReading('"a JSON string"')).toBeNull();
    expect(formatJsonForReading('42')).toBeNull();
    expect(formatJsonForReading('{"cut off": ')).toBeNull();
    expect(formatJsonForReading('')).toBeNull();
  });

  it('reads JSON with surrounding whitespace', () => {
    expect(formatJsonForReading('\n  {"a": 1}\n')).toBe('{\n  "a": 1\n}');
  });

  it('shows very long texts raw', () => {
    const long = `[${'1,'.repeat(MAX_READABLE_JSON_CHARS / 2)}1]`;
    expect(formatJsonForReading(long)).toBeNull();
  });
});
