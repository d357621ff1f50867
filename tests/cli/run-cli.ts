import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const projectRoot = resolve(import.meta.dirname, '../..');
const tsxBin = resolve(projectRoot, 'node_modules/.bin/tsx');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the src/cli tools exactly as `npm run <tool>` does (through tsx). */
export function runCli(tool: 'replay' | 'conformance' | 'compare', args: readonly string[]): CliRun {
  const result = spawnSync(tsxBin, [resolve(projectRoot, `src/cli/${tool}.ts`), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
