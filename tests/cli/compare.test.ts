import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '#core/strategies/strategy-registry.ts';
import { runCli } from './run-cli.ts';

const directory = mkdtempSync(join(tmpdir(), 'compare-cli-'));

/** Twelve tool-using turns of ~1,300 rough tokens each: a session of ~16K tokens. */
function transcriptFile(): string {
  const filler = 'x'.repeat(1600);
  const messages: unknown[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let turn = 0; turn < 12; turn++) {
    messages.push({ role: 'user', content: `Task ${turn}: fix src/module_${turn}.py ${filler}` });
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `call_${turn}`,
          type: 'function',
          function: { name: 'terminal', arguments: `{"command": "pytest -k t${turn}"}` },
        },
      ],
    });
    messages.push({
      role: 'tool',
      tool_call_id: `call_${turn}`,
      content: `{"output": "FAILED test_${turn} - KeyError: 'k${turn}' ${filler}", "exit_code": 1}`,
    });
    messages.push({ role: 'assistant', content: `Fixed task ${turn}. ${filler}` });
  }
  const path = join(directory, 'chat.json');
  writeFileSync(path, JSON.stringify({ messages }));
  return path;
}

interface Report {
  file: string;
  contextLength: number;
  strategies: {
    name: string;
    fires: boolean;
    thresholdTokens: number;
    tokensBefore: number;
    tokensAfter: number;
    messagesAfter: number;
    summaryTokens: number;
    fidelity: { score: number; total: number; lost: { kind: string; text: string }[] };
    cost: { summaryUsd: number | null; cacheRewriteTokens: number; nextTurnInputUsd: number | null };
    simulation: { turns: number; compactions: number; peakTokens: number; inputTokensBilled: number };
  }[];
}

describe('compare CLI', () => {
  it('prints the ROUND2 §2 JSON object for every registered strategy by default', () => {
    const file = transcriptFile();
    const run = runCli('compare', [file, '--json']);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.file).toBe(file);
    expect(report.contextLength).toBe(200_000);
    expect(report.strategies.map((entry) => entry.name)).toEqual(STRATEGY_NAMES);
    for (const entry of report.strategies) {
      expect(typeof entry.fires).toBe('boolean');
      // ~16K tokens in a 200K window: nothing fires, yet the current-point compaction is shown.
      expect(entry.fires).toBe(false);
      expect(entry.thresholdTokens).toBeGreaterThan(entry.tokensBefore);
      expect(entry.fidelity.score).toBeGreaterThanOrEqual(0);
      expect(entry.fidelity.score).toBeLessThanOrEqual(1);
      expect(entry.fidelity.lost.length).toBeLessThanOrEqual(entry.fidelity.total);
      for (const fact of entry.fidelity.lost)
        expect(Object.keys(fact)).toEqual(expect.arrayContaining(['kind', 'text']));
      expect(Object.keys(entry.cost)).toEqual(
        expect.arrayContaining(['summaryUsd', 'cacheRewriteTokens', 'nextTurnInputUsd']),
      );
      expect(entry.simulation).toMatchObject({ turns: 12, compactions: 0 });
      expect(entry.simulation.inputTokensBilled).toBeGreaterThan(entry.simulation.peakTokens);
    }
  });

  it('takes the strategies, window and model asked for', () => {
    const run = runCli('compare', [
      transcriptFile(),
      '--strategies',
      'codex-cli,claude-code',
      '--context-length',
      '20000',
      '--model',
      'no-such-model',
      '--json',
    ]);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.contextLength).toBe(20_000);
    expect(report.strategies.map((entry) => entry.name)).toEqual(['codex-cli', 'claude-code']);
    // Codex fires at 90% of 20,000 = 18,000, above the ~16K-token session: never.
    expect(report.strategies[0]!.thresholdTokens).toBe(18_000);
    expect(report.strategies[0]!.simulation.compactions).toBe(0);
    // Claude Code's effective window is max(0, 20,000 − min(max output, 20,000)) = 0, so it fires
    // at 0 − 13,000, clamped to 0: every request is over it and the session compacts.
    expect(report.strategies[1]!.thresholdTokens).toBe(0);
    expect(report.strategies[1]!.fires).toBe(true);
    expect(report.strategies[1]!.simulation.compactions).toBeGreaterThan(0);
    // An unpriced model has unknown costs, never $0.
    expect(report.strategies[0]!.cost.summaryUsd).toBeNull();
    expect(report.strategies[0]!.cost.nextTurnInputUsd).toBeNull();
  });

  it('prints a table with one line per strategy', () => {
    const run = runCli('compare', [transcriptFile(), '--strategies', 'hermes-2026-07,opencode']);
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[2]).toMatch(/^entry\s+fires\?\s+threshold/);
    expect(lines.slice(4).map((line) => line.split(/\s{2,}/)[0])).toEqual(['Hermes (2026-07)', 'opencode']);
  });

  it('exits 2 with one line for a malformed file', () => {
    const path = join(directory, 'broken.json');
    writeFileSync(path, '{"messages": [ {"role": "user", "content": "hi"}, \n');
    const run = runCli('compare', [path, '--json']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('compare:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('broken.json');
  });

  it('escapes control characters in the one error line', () => {
    const run = runCli('compare', [join(directory, 'missing\u001b[31m\nred.json')]);
    expect(run.status).toBe(2);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('compare:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('missing\\u001b[31m red.json');
    expect(run.stderr).not.toContain('\u001b');
  });

  it('exits 2 for an unknown strategy, a bad window or no file', () => {
    expect(runCli('compare', [transcriptFile(), '--strategies', 'codex-cli,nope']).stderr).toContain(
      "unknown strategy 'nope'",
    );
    expect(runCli('compare', [transcriptFile(), '--context-length', 'big']).status).toBe(2);
    expect(runCli('compare', []).status).toBe(2);
  });
});
