import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReplayDecision, ReplayReport } from '#cli/replay/run-replay.ts';
import { runCli } from './run-cli.ts';

const directory = mkdtempSync(join(tmpdir(), 'replay-cli-'));

/** The reason a decision gives; a compaction gives none. */
const reasonOf = (decision: ReplayDecision): string => ('reason' in decision ? decision.reason : '');

function transcriptFile(): string {
  const filler = 'x'.repeat(400);
  const messages: unknown[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let turn = 0; turn < 12; turn++) {
    messages.push({ role: 'user', content: `Task ${turn}: ${filler}` });
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
      content: `{"output": "${filler}", "exit_code": 0}`,
    });
    messages.push({ role: 'assistant', content: `Done with task ${turn}. ${filler}` });
  }
  const path = join(directory, 'chat.json');
  writeFileSync(path, JSON.stringify({ messages }));
  return path;
}

describe('replay CLI', () => {
  it('prints the SPEC §2.1 JSON plan with contiguous half-open ranges', () => {
    // ~4.7K rough tokens, far below any trigger (2026-04 floors it at 64,000): forced, as `/compress`.
    const run = runCli('replay', [
      transcriptFile(),
      '--json',
      '--context-length',
      '64000',
      '--protect-last-n',
      '4',
      '--force',
    ]);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as ReplayReport;
    for (const key of [
      'format',
      'preset',
      'messagesBefore',
      'messagesAfter',
      'tokensBefore',
      'tokensAfter',
      'thresholdTokens',
      'tailTokenBudget',
      'shouldCompress',
      'head',
      'middle',
      'tail',
      'prunedCount',
      'summaryBudget',
      'summary',
      'messages',
      'decision',
      'timings',
    ]) {
      expect(report, key).toHaveProperty(key);
    }
    expect(report.format).toBe('openai-chat');
    expect(report.preset).toBe('hermes-2026-04');
    expect(report.messagesBefore).toBe(49);
    expect(report.head.start).toBe(0);
    expect(report.head.end).toBe(report.middle.start);
    expect(report.middle.end).toBe(report.tail.start);
    expect(report.tail.end).toBe(49);
    expect(report.middle.end).toBeGreaterThan(report.middle.start);
    expect(report.messagesAfter).toBeLessThan(report.messagesBefore);
    expect(report.shouldCompress).toBe(false);
    expect(report.decision).toEqual({ kind: 'compacted' });
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
    expect(report.summary).toContain('CONTEXT COMPACTION');
    expect(report.messages).toHaveLength(report.messagesAfter);
    expect(typeof report.timings.compressMs).toBe('number');
  });

  it('leaves a transcript the trigger would not fire on alone, and says why with the plan', () => {
    const path = transcriptFile();
    const run = runCli('replay', [path, '--json', '--context-length', '64000']);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as ReplayReport;
    expect(report.shouldCompress).toBe(false);
    expect(report.decision.kind).toBe('not-needed');
    expect(reasonOf(report.decision)).toContain(
      `tokens (Hermes' rough estimate, messages + tool schemas) are below the trigger of ${report.thresholdTokens.toLocaleString('en-US')}`,
    );
    expect(report.tokensBefore).toBeLessThan(report.thresholdTokens);
    expect(report.messagesAfter).toBe(report.messagesBefore);
    expect(report.tokensAfter).toBe(report.tokensBefore);
    expect(report.summary).toBeNull();
    expect(report.messages).toEqual(
      (JSON.parse(readFileSync(path, 'utf8')) as { messages: unknown }).messages,
    );
    // The plan is still shown: where the cut would fall.
    expect(report.middle.end).toBeGreaterThan(report.middle.start);

    const text = runCli('replay', [path, '--context-length', '64000']);
    expect(text.stdout).toContain('Middle [');
    expect(text.stdout).toContain('middle to summarise (planned)');
    expect(text.stdout).toContain('No compaction: ');
    expect(text.stdout).toContain('--force compacts it anyway');
  });

  it('refuses a forced compaction that would grow the context', () => {
    const messages = [{ role: 'system', content: 'Be brief.' }];
    for (let turn = 0; turn < 6; turn++) {
      messages.push({ role: 'user', content: `Q${turn}?` });
      messages.push({ role: 'assistant', content: `A${turn}.` });
    }
    const path = join(directory, 'tiny.json');
    writeFileSync(path, JSON.stringify({ messages }));
    const run = runCli('replay', [
      path,
      '--json',
      '--force',
      '--protect-last-n',
      '2',
      '--protect-first-n',
      '1',
    ]);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as ReplayReport;
    expect(report.decision.kind).toBe('refused');
    expect(reasonOf(report.decision)).toMatch(
      /^Refused: the compacted context would hold [\d,]+ tokens, [\d,]+ more than the [\d,]+ it held before: the summary and its framing outweigh the \d+ messages they stand for\.$/,
    );
    expect(report.messagesAfter).toBe(13);
    expect(report.tokensAfter).toBe(report.tokensBefore);
    expect(report.messages).toEqual(messages);
    expect(runCli('replay', [path, '--force']).stdout).toContain('Refused: the compacted context would hold');
  });

  it('stops after importing with --import-only', () => {
    const run = runCli('replay', [transcriptFile(), '--import-only', '--json']);
    expect(run.status).toBe(0);
    const payload = JSON.parse(run.stdout) as { messages: unknown[] };
    expect(Object.keys(payload).sort()).toEqual(['format', 'messages', 'metadata', 'warnings']);
    expect(payload.messages).toHaveLength(49);
  });

  it('reads a UTF-16 file with a byte order mark', () => {
    const path = join(directory, 'utf16.json');
    const text = JSON.stringify({ messages: [{ role: 'user', content: 'Café ✓' }] });
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const run = runCli('replay', [path, '--import-only', '--json']);
    expect(run.status).toBe(0);
    expect((JSON.parse(run.stdout) as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'Café ✓' },
    ]);
  });

  it('exits 2 with one line naming the problem for a malformed file', () => {
    const path = join(directory, 'broken.json');
    writeFileSync(path, '{"messages": [ {"role": "user", "content": "hi"}, \n');
    const run = runCli('replay', [path, '--json']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('replay:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/line \d+|\$/);
  });

  it('exits 2 for an unknown option or a missing file', () => {
    expect(runCli('replay', [transcriptFile(), '--threshold', 'lots']).status).toBe(2);
    expect(runCli('replay', [join(directory, 'missing.json')]).status).toBe(2);
  });

  it('counts exactly (js-tiktoken) a message holding a 100,000-character unbroken run', () => {
    const path = join(directory, 'long-run.json');
    const run = 'a'.repeat(100_000);
    writeFileSync(
      path,
      JSON.stringify({
        messages: [
          { role: 'user', content: `Here is the blob: ${run}` },
          { role: 'assistant', content: 'Noted.' },
        ],
      }),
    );
    // Unbounded, js-tiktoken's merge did not finish a 100,000-character run in 240 s.
    const counted = runCli('replay', [path, '--json', '--estimator', 'o200k_base']);
    expect(counted.status).toBe(0);
    const report = JSON.parse(counted.stdout) as { tokensBefore: number };
    // About one token per 8 letters of the run (o200k's longest "a" token), plus the words.
    expect(report.tokensBefore).toBeGreaterThan(100_000 / 16);
    expect(report.tokensBefore).toBeLessThan(100_000 / 4);
  });

  it('never copies control characters from the file or its name to the terminal', () => {
    const title = '\u001b]0;title\u0007';
    // JSON.parse quotes the offending text in its message; the error names its place instead.
    const broken = join(directory, 'title.jsonl');
    writeFileSync(broken, `${title}\n`);
    const fromContent = runCli('replay', [broken]);
    expect(fromContent.status).toBe(2);
    expect(fromContent.stderr).toContain('line 1 is not valid JSON at column 1');
    expect(fromContent.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);

    const fromName = runCli('replay', [join(directory, `missing ${title}.json`)]);
    expect(fromName.status).toBe(2);
    expect(fromName.stderr).toContain('missing \\x1b]0;title\\x07.json');
    expect(fromName.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('escapes control characters of the transcript in the report and the JSON output', () => {
    const path = join(directory, 'controls.json');
    const text = `please \u001b[2J\u009b31m \u202eevil ${'words '.repeat(20)}`;
    writeFileSync(
      path,
      JSON.stringify({
        messages: Array.from({ length: 30 }, (_, index) => ({
          role: index % 2 === 0 ? 'user' : 'assistant',
          content: `${index}: ${text}`,
        })),
      }),
    );
    for (const args of [
      [path, '--context-length', '2048'],
      [path, '--json', '--context-length', '2048'],
    ]) {
      const run = runCli('replay', args);
      expect(run.status).toBe(0);
      expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    }
    const json = runCli('replay', [path, '--json', '--import-only']);
    expect((JSON.parse(json.stdout) as { messages: { content: string }[] }).messages[0]!.content).toBe(
      `0: ${text}`,
    );
  });
});
