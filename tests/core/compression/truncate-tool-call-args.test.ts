import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/tool_call_args_truncation.ts';
import { truncateToolCallArgs } from '#core/compression/truncate-tool-call-args.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';

describe('truncateToolCallArgs', () => {
  it.each(hermesVectorRuns('tool_call_args_truncation.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toBe(run.expected);
  });

  it('re-serialises untouched JSON with Python spacing, key order and float formatting', () => {
    expect(truncateToolCallArgs('{"b":1.0,"10":2,"a":[1e5,3]}')).toBe(
      '{"b": 1.0, "10": 2, "a": [100000.0, 3]}',
    );
  });

  it('cuts string leaves by code points and keeps the head', () => {
    expect(truncateToolCallArgs(JSON.stringify({ s: '🙂'.repeat(5) }), 3)).toBe(
      '{"s": "🙂🙂🙂...[truncated]"}',
    );
  });

  it('cuts a top-level string too', () => {
    expect(truncateToolCallArgs(JSON.stringify('abcdef'), 2)).toBe('"ab...[truncated]"');
  });

  it('returns arguments that are not JSON unchanged', () => {
    expect(truncateToolCallArgs('{"a": 1,}')).toBe('{"a": 1,}');
    expect(truncateToolCallArgs('')).toBe('');
  });
});
