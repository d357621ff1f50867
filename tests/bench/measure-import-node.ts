import { createReadStream } from 'node:fs';
import { createJsonlImporter } from '#core/import/create-jsonl-importer.ts';
import type { BenchContext } from './bench-context.ts';
import type { BenchOutcome } from './bench-result.ts';
import { describeRuns, timeRuns } from './bench-stats.ts';
import { claudeCodeJsonlFile } from './bench-files.ts';

/** Chunks as a browser `File.stream()` would hand them over, roughly. */
const READ_CHUNK_BYTES = 4 * 1024 * 1024;

async function importFile(path: string): Promise<{ messages: number; warnings: number }> {
  const importer = createJsonlImporter();
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: READ_CHUNK_BYTES })) {
    importer.push(chunk as string);
  }
  const result = importer.finish();
  if (!result.ok) throw new Error(`the generated Claude Code file did not import: ${result.error.message}`);
  return { messages: result.value.transcript.messages.length, warnings: result.value.warnings.length };
}

/**
 * Parsing the generated Claude Code JSONL with the streaming importer in Node: the core part
 * of the browser import figure, measurable before the app's import path exists. No target.
 */
export async function measureImportNode(
  context: BenchContext,
  megabytes: number,
): Promise<BenchOutcome & { messages: number; path: string; bytes: number }> {
  context.log(`generating or reusing a ${megabytes} MiB Claude Code JSONL`);
  const file = await claudeCodeJsonlFile(megabytes);
  context.log(`streaming import in Node, ${(file.bytes / 2 ** 20).toFixed(0)} MiB`);
  const { stats, last } = await timeRuns(context.options.quick ? 1 : 3, () => importFile(file.path));
  return {
    rows: [
      {
        name: `import ${megabytes} MiB Claude Code JSONL, core parse only (Node)`,
        size: last.messages,
        value: stats.medianMs,
        unit: 'ms',
        target: null,
        met: null,
        note: `${describeRuns(stats)}; ${(file.bytes / 2 ** 20).toFixed(1)} MiB streamed in 4 MiB chunks, ${last.warnings} warnings`,
      },
    ],
    skips: [],
    messages: last.messages,
    path: file.path,
    bytes: file.bytes,
  };
}
