import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { toOpenAiChatJson } from '#core/demo/write-openai-json.ts';
import { benchTranscript } from './bench-transcripts.ts';

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
/** Generated inputs and builds live outside the repo, shared by later runs. */
export const BENCH_TMP_DIR = join(tmpdir(), 'context-lab-bench');
/** Messages per generated session when the import file is made of several. */
const SESSION_MESSAGES = 2_000;

/** A digest of the generator's source, so a changed generator never reuses a stale file. */
function generatorDigest(): string {
  const hash = createHash('sha256');
  const demoDir = join(PROJECT_ROOT, 'src/core/demo');
  for (const file of readdirSync(demoDir).sort()) hash.update(file).update(readFileSync(join(demoDir, file)));
  hash.update(readFileSync(join(PROJECT_ROOT, 'tests/bench/write-transcript.ts')));
  return hash.digest('hex').slice(0, 12);
}

function cachedPath(name: string): { path: string; exists: boolean } {
  mkdirSync(BENCH_TMP_DIR, { recursive: true });
  const path = join(BENCH_TMP_DIR, `${generatorDigest()}-${name}`);
  return { path, exists: existsSync(path) };
}

/**
 * A Claude Code session file of about `megabytes` MiB, written by write-transcript.ts (several
 * generated sessions continuing one conversation). Made once and reused while the generator
 * is unchanged.
 */
export async function claudeCodeJsonlFile(megabytes: number): Promise<{ path: string; bytes: number }> {
  const { path, exists } = cachedPath(`claude-code-${megabytes}mib.jsonl`);
  if (!exists) {
    const partial = `${path}.partial`;
    await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        join(PROJECT_ROOT, 'tests/bench/write-transcript.ts'),
        '--format',
        'claude-code',
        '--megabytes',
        String(megabytes),
        '--messages',
        String(SESSION_MESSAGES),
        '--seed',
        '1',
        '--out',
        partial,
      ],
      { cwd: PROJECT_ROOT, maxBuffer: 1024 * 1024 },
    );
    renameSync(partial, path);
  }
  return { path, bytes: statSync(path).size };
}

/** The generated session of `size` messages as an OpenAI chat JSON file (for the app's import). */
export function openAiJsonFile(size: number): { path: string; bytes: number } {
  const { path, exists } = cachedPath(`openai-${size}.json`);
  if (!exists) {
    writeFileSync(`${path}.partial`, toOpenAiChatJson(benchTranscript(size)));
    renameSync(`${path}.partial`, path);
  }
  return { path, bytes: statSync(path).size };
}
