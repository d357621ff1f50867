/**
 * Issue 12's "done when": the replay works for every strategy on every corpus transcript —
 * exit 0, fewer tokens after when the strategy compacts, never more, and no orphan tool pairs —
 * in process (the whole corpus × every strategy × two windows), and through the real CLI for
 * `--list-strategies`, a strategy by name and an unknown one.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '#core/import/import-transcript.ts';
import { sniffTextEncoding } from '#core/import/sniff-text-encoding.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import { parseReplayOptions } from '#cli/replay/parse-replay-options.ts';
import { runReplay, type ReplayReport } from '#cli/replay/run-replay.ts';
import { toolPairProblems } from '#tests/helpers/strategy-output-checks.ts';
import { runCli } from './run-cli.ts';

const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '../../../shared/corpus/transcripts');
const manifest = JSON.parse(readFileSync(join(CORPUS, 'MANIFEST.json'), 'utf8')) as { path: string }[];

function importCorpusFile(path: string) {
  const bytes = readFileSync(join(CORPUS, path));
  const imported = importTranscript(new TextDecoder(sniffTextEncoding(bytes)).decode(bytes));
  if (!imported.ok) throw new Error(`${path}: ${imported.error.message}`);
  return imported.value;
}

describe('replay with every strategy on every corpus transcript', () => {
  // 16K makes most strategies fire on all but the smallest files; 200K leaves them alone.
  for (const window of [16_000, 200_000]) {
    it(`compacts only to fewer tokens, never orphans a tool pair (${window.toLocaleString('en-US')}-token window)`, async () => {
      let compacted = 0;
      for (const entry of manifest) {
        const imported = importCorpusFile(entry.path);
        const before = toolPairProblems(imported.transcript.messages).length;
        for (const strategy of STRATEGIES) {
          const options = parseReplayOptions([
            entry.path,
            '--preset',
            strategy.name,
            '--context-length',
            String(window),
          ]);
          expect(options.ok).toBe(true);
          if (!options.ok) continue;
          const { report } = await runReplay(imported, options.value, 0, () => 0);
          const where = `${entry.path} × ${strategy.name}`;
          expect(report.preset, where).toBe(strategy.name);
          if (report.decision.kind === 'compacted') {
            compacted++;
            expect(report.tokensAfter, where).toBeLessThan(report.tokensBefore);
            expect(report.fidelity, where).not.toBeNull();
            expect(report.ledger, where).not.toBeNull();
          } else {
            expect(report.tokensAfter, where).toBe(report.tokensBefore);
            expect(report.messages, where).toBe(imported.transcript.messages);
          }
          // A compaction may leave a transcript's own broken pairs, never add one.
          expect(toolPairProblems(report.messages).length, where).toBeLessThanOrEqual(before);
        }
      }
      if (window === 16_000) expect(compacted).toBeGreaterThan(manifest.length);
    }, 240_000);
  }
});

describe('replay CLI strategies', () => {
  it('lists every strategy with its one-line summary', () => {
    const run = runCli('replay', ['--list-strategies']);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual(STRATEGIES.map((strategy) => strategy.name));
    for (const [index, strategy] of STRATEGIES.entries()) expect(lines[index]).toContain(strategy.summary);
  });

  it('replays with a strategy by name and reports fidelity and the ledger', () => {
    const file = join(CORPUS, 'openai-chat/mini-swe-agent__sqlfluff__sqlfluff-2419.traj.json');
    const run = runCli('replay', [file, '--preset', 'codex-cli', '--context-length', '16000', '--json']);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as ReplayReport;
    expect(report.preset).toBe('codex-cli');
    expect(report.decision.kind).toBe('compacted');
    expect(report.fidelity?.score).toBeGreaterThanOrEqual(0);
    expect(report.fidelity?.score).toBeLessThanOrEqual(1);
    expect(Object.keys(report.ledger ?? {})).toEqual(
      expect.arrayContaining([
        'summaryInputTokens',
        'summaryOutputTokens',
        'summaryUsd',
        'cacheRewriteTokens',
        'cacheRewriteUsd',
        'savedTokensPerTurn',
        'savedUsdPerTurn',
        'breakEvenTurn',
      ]),
    );
    for (const fact of report.fidelity?.lost ?? [])
      expect(Object.keys(fact).sort()).toEqual(['kind', 'message', 'text']);
  });

  it('names the strategies when --preset is unknown, and checks --option keys', () => {
    const unknown = runCli('replay', ['x.json', '--preset', 'gpt-magic']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain('codex-cli');
    const option = runCli('replay', ['x.json', '--preset', 'codex-cli', '--option', 'lcm.freshTailCount=3']);
    expect(option.status).toBe(2);
    expect(option.stderr).toContain('codex.triggerPercent');
  });
});
