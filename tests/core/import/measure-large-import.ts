/**
 * Throwaway measurement (not a test): generates a ~100 MB Claude Code session JSONL and imports
 * it the way the worker will (1 MB chunks through createJsonlImporter) and as one string
 * (importTranscript), printing time and peak memory.
 * Run: node --expose-gc --import tsx tests/core/import/measure-large-import.ts
 */
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonlImporter } from '#core/import/create-jsonl-importer.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import { describeImport } from '#core/import/describe-import.ts';

const TARGET_BYTES = 100 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
const SESSION = '5d1c1c1e-0c5f-4b6e-9b1a-3f1d2e4c5b6a';

function generate(path: string): void {
  const lines: string[] = [];
  let size = 0;
  let turn = 0;
  let parent: string | null = null;
  const push = (record: Record<string, unknown>): void => {
    const line = JSON.stringify(record);
    lines.push(line);
    size += line.length + 1;
  };
  const filler = (seed: number, chars: number): string => {
    const words = [
      'const',
      'return',
      'import',
      'function',
      'await',
      'result',
      'value',
      'error',
      '中文',
      'café',
      '🎉',
    ];
    let text = '';
    for (let index = 0; text.length < chars; index += 1)
      text += `${words[(seed + index * 7) % words.length]} `;
    return text;
  };
  const chunks: string[] = [];
  while (size < TARGET_BYTES) {
    turn += 1;
    const base = (uuid: string) => ({
      parentUuid: parent,
      isSidechain: false,
      sessionId: SESSION,
      cwd: '/repo',
      version: '2.0.31',
      uuid,
      timestamp: new Date(1_760_000_000_000 + turn * 60_000).toISOString(),
    });
    const user = `u${turn}`;
    push({
      ...base(user),
      type: 'user',
      message: { role: 'user', content: `Step ${turn}: ${filler(turn, 200)}` },
    });
    parent = user;
    const messageId = `msg_${turn}`;
    for (const [index, block] of [
      { type: 'thinking', thinking: filler(turn + 1, 400), signature: 'sig' },
      { type: 'text', text: filler(turn + 2, 300) },
      {
        type: 'tool_use',
        id: `toolu_${turn}_a`,
        name: 'Read',
        input: { file_path: `/repo/src/file${turn}.ts` },
      },
      { type: 'tool_use', id: `toolu_${turn}_b`, name: 'Bash', input: { command: `npm test -- ${turn}` } },
    ].entries()) {
      const uuid = `a${turn}_${index}`;
      push({
        ...base(uuid),
        type: 'assistant',
        message: {
          id: messageId,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [block],
        },
      });
      parent = uuid;
    }
    for (const suffix of ['a', 'b']) {
      const uuid = `r${turn}${suffix}`;
      push({
        ...base(uuid),
        type: 'user',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: `toolu_${turn}_${suffix}`, content: filler(turn + 3, 3000) },
          ],
        },
        toolUseResult: { stdout: 'trimmed' },
      });
      parent = uuid;
    }
    if (lines.length > 2000) chunks.push(lines.splice(0).join('\n') + '\n');
  }
  chunks.push(lines.join('\n') + '\n');
  writeFileSync(path, chunks.join(''));
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'context-lab-import-'));
  const path = join(dir, 'large-session.jsonl');
  generate(path);
  global.gc?.();
  const baseline = process.memoryUsage();
  console.log(
    `generated ${megabytes(statSync(path).size)}; baseline rss ${megabytes(baseline.rss)}, heap ${megabytes(baseline.heapUsed)}`,
  );

  let peakRss = 0;
  let peakHeap = 0;
  const sample = (): void => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  };
  const started = performance.now();
  const startedCpu = process.cpuUsage();
  const importer = createJsonlImporter();
  let slowestPushMs = 0;
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK_BYTES })) {
    const before = performance.now();
    importer.push(chunk as string);
    slowestPushMs = Math.max(slowestPushMs, performance.now() - before);
    sample();
  }
  const result = importer.finish();
  sample();
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(startedCpu);
  if (!result.ok) throw new Error(result.error.message);
  console.log(
    `streamed: ${describeImport(result.value)} in ${(elapsed / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU`,
  );
  console.log(
    `  peak rss ${megabytes(peakRss)}, peak heap ${megabytes(peakHeap)}, slowest 1 MB push ${slowestPushMs.toFixed(0)} ms`,
  );

  global.gc?.();
  peakRss = 0;
  peakHeap = 0;
  const text = readFileSync(path, 'utf8');
  sample();
  const wholeStarted = performance.now();
  const wholeCpu = process.cpuUsage();
  const whole = importTranscript(text);
  sample();
  if (!whole.ok) throw new Error(whole.error.message);
  const wholeCpuUsed = process.cpuUsage(wholeCpu);
  console.log(
    `whole string: ${whole.value.stats.messages} messages in ${((performance.now() - wholeStarted) / 1000).toFixed(2)} s wall, ` +
      `${((wholeCpuUsed.user + wholeCpuUsed.system) / 1e6).toFixed(2)} s CPU`,
  );
  console.log(`  peak rss ${megabytes(peakRss)}, peak heap ${megabytes(peakHeap)}`);
  rmSync(dir, { recursive: true });
}

await main();
