import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const vectors = resolve(import.meta.dirname, '../../../shared/conformance/hermes');

describe('conformance runner', () => {
  it('prints one line per file and a total, and exits 0 when everything passes', () => {
    const directory = mkdtempSync(join(tmpdir(), 'conformance-ok-'));
    copyFileSync(join(vectors, 'thresholds.json'), join(directory, 'thresholds.json'));
    const run = runCli('conformance', [directory]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^thresholds\.json: \d+ passed, 0 failed, \d+ skipped$/m);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^conformance: \d+ passed, 0 failed, \d+ skipped$/);
  });

  it('exits 1 and names the case when an expected value is wrong', () => {
    const directory = mkdtempSync(join(tmpdir(), 'conformance-bad-'));
    const file = JSON.parse(readFileSync(join(vectors, 'thresholds.json'), 'utf8')) as {
      cases: Array<Record<string, { threshold_tokens?: unknown } | undefined>>;
    };
    const tampered = file.cases[0]!;
    for (const key of ['expected', 'expected_legacy_2026_04']) {
      if (tampered[key] && typeof tampered[key].threshold_tokens === 'number')
        tampered[key].threshold_tokens += 1;
    }
    writeFileSync(join(directory, 'thresholds.json'), JSON.stringify(file));
    const run = runCli('conformance', [directory, '--json', join(directory, 'results.json')]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/FAILED thresholds\.json :: /);
    const results = JSON.parse(readFileSync(join(directory, 'results.json'), 'utf8')) as {
      cases: Array<{ status: string }>;
    };
    expect(results.cases.some((entry) => entry.status === 'failed')).toBe(true);
  });

  it('reports a vector file it has no adapter for instead of crashing', () => {
    const directory = mkdtempSync(join(tmpdir(), 'conformance-unknown-'));
    writeFileSync(
      join(directory, 'brand_new_vectors.json'),
      JSON.stringify({ cases: [{ name: 'a', input: {}, expected: 1 }] }),
    );
    const run = runCli('conformance', [directory]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /brand_new_vectors\.json: 0 passed, 0 failed, 1 skipped \(unknown vector file/,
    );
  });

  it('escapes control characters from vector files in what it prints', () => {
    const directory = mkdtempSync(join(tmpdir(), 'conformance-controls-'));
    writeFileSync(join(directory, 'evil\u001b]0;title\u0007.json'), '\u001b]0;title\u0007 not json');
    const run = runCli('conformance', [directory]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('evil\\x1b]0;title\\x07.json: 0 passed, 1 failed');
    expect(run.stdout + run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
