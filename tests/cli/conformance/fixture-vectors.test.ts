import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAdapter } from '#cli/conformance/load-adapter.ts';
import { runVectorCase } from '#cli/conformance/run-vector-file.ts';
import type { VectorFile } from '#cli/conformance/vector-adapter.ts';
import { ALL_PRESETS } from '#core/presets/preset.ts';

/**
 * Context Lab's own vector-style cases (tests/fixtures/conformance, same schema and adapters as
 * ../shared/conformance/hermes), written from hermes-reference for the rules the shared sample
 * does not cover. Same as `npm run conformance -- tests/fixtures/conformance`.
 */
const fixturesDir = resolve(import.meta.dirname, '../../fixtures/conformance');
const files = readdirSync(fixturesDir).filter((name) => name.endsWith('.json'));

describe.each(files)('%s', (file) => {
  const vectors = JSON.parse(readFileSync(join(fixturesDir, file), 'utf8')) as VectorFile;

  it.each(ALL_PRESETS.map((preset) => [preset.name, preset] as const))(
    'every case passes or is skipped for %s',
    async (_name, preset) => {
      const adapter = await loadAdapter(file);
      expect(adapter, `adapter for ${file}`).not.toBeNull();
      const results = await Promise.all(
        vectors.cases.map((testCase) => runVectorCase(file, testCase, adapter!, preset)),
      );
      expect(results.filter((result) => result.status === 'failed')).toEqual([]);
      expect(results.some((result) => result.status === 'passed')).toBe(true);
    },
  );
});
