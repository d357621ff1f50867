import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/tool_result_persistence.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';

describe('tool result persistence vectors', () => {
  it.each(hermesVectorRuns('tool_result_persistence.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });
});
