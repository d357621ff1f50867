// `npm run bench [-- --quick] [-- --no-browser]`: the SPEC §7 figures, each beside its target,
// as a table and as bench-results.json at the project root (SPEC §2.1). Medians over repeated
// runs; the machine (cores, CPU, load) is printed with them, since shared machines are noisy.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBrowserSession, type BrowserSession } from './bench-browser.ts';
import type { BenchContext } from './bench-context.ts';
import { PROJECT_ROOT } from './bench-files.ts';
import { describeMachine, formatMachine } from './bench-machine.ts';
import { parseBenchOptions, type BenchMeasurement } from './bench-options.ts';
import { benchResultsFileName } from './bench-results-file-name.ts';
import {
  skipToResult,
  toResult,
  type BenchOutcome,
  type BenchResultsFile,
  type BenchRow,
  type BenchSkip,
} from './bench-result.ts';
import { formatTable } from './bench-table.ts';
import { measureBundleSize } from './measure-bundle-size.ts';
import { measureCompare } from './measure-compare.ts';
import { measureCompress } from './measure-compress.ts';
import { measureExactCountNode } from './measure-exact-count-node.ts';
import { measureFidelityFigures } from './measure-fidelity.ts';
import { measureImportBrowser } from './measure-import-browser.ts';
import { measureImportNode } from './measure-import-node.ts';
import { measureLargeSessionBrowser } from './measure-large-session-browser.ts';
import { measurePromptCacheCost } from './measure-prompt-cache-cost.ts';
import { measureRedraw } from './measure-redraw.ts';
import { measureReplay } from './measure-replay.ts';
import { measureRoughEstimate } from './measure-rough-estimate.ts';
import { measureWorkerCount } from './measure-worker-count.ts';

const options = parseBenchOptions(process.argv.slice(2));
// A partial run (`--only`) never overwrites the full figures.
const RESULTS_PATH = join(PROJECT_ROOT, benchResultsFileName(options.only));
const machine = describeMachine(null);
const benchStarted = performance.now();
const elapsed = (): string => `${((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4)} s`;
const context: BenchContext = { options, log: (line) => console.log(`[${elapsed()}] ${line}`) };

const rows: BenchRow[] = [];
/** Whether a measurement listed under any of `keys` was asked for (all are, without --only). */
const wanted = (keys: BenchMeasurement | readonly BenchMeasurement[]): boolean =>
  options.only === null || (typeof keys === 'string' ? [keys] : keys).some((key) => options.only!.has(key));
const skips: BenchSkip[] = [];
let failures = 0;

/** The browser figures and their targets, listed as not measured when the browser part cannot run. */
const browserSkips = (reason: string): BenchSkip[] =>
  [
    { name: 'main bundle: JS loaded by index.html, gzip -9', unit: 'KiB', target: '< 200 KiB' },
    { name: 'exact count in the Chromium worker', unit: 'tokens/s', target: '≥ 1M tokens/s' },
    { name: 'recount after one appended message (worker)', unit: 'ms', target: '< 5 ms' },
    ...options.importMegabytes.flatMap((megabytes) => [
      {
        name: `import ${megabytes} MiB Claude Code JSONL through the app (Chromium)`,
        unit: 'ms',
        target: '< 10 s',
      },
      { name: `import ${megabytes} MiB: longest main-thread task (Chromium)`, unit: 'ms', target: '≤ 50 ms' },
    ]),
    { name: 'redraw of the context map after a setting change (Chromium)', unit: 'ms', target: '< 100 ms' },
    {
      name: '50,000-message session scrolled, searched, planned, replayed, exported: longest main-thread task',
      unit: 'ms',
      target: '≤ 50 ms',
    },
  ].map((figure) => ({ ...figure, size: null, reason }));

/** Runs one measurement; a crash becomes a "not measured" line instead of ending the bench. */
async function run<T extends BenchOutcome>(
  key: BenchMeasurement | readonly BenchMeasurement[],
  label: string,
  measure: () => Promise<T>,
): Promise<T | null> {
  if (!wanted(key)) return null;
  try {
    const outcome = await measure();
    rows.push(...outcome.rows);
    skips.push(...outcome.skips);
    return outcome;
  } catch (error) {
    failures += 1;
    const message = error instanceof Error ? error.message : String(error);
    console.error(`[${elapsed()}] ${label} failed: ${error instanceof Error ? error.stack : message}`);
    skips.push({
      name: label,
      size: null,
      unit: '',
      target: null,
      reason: `failed: ${message.split('\n')[0]}`,
    });
    return null;
  }
}

console.log(
  `${formatMachine(machine)}\n${options.quick ? 'quick run' : 'full run'}: ` +
    (options.only === null
      ? `sizes ${options.sizes.join(', ')}\n`
      : `only ${[...options.only].join(', ')}${options.only.has('import') ? ` (imports of ${options.importMegabytes.join(' and ')} MiB)` : ''}\n`),
);

await run('rough', 'rough estimate (Node)', () => measureRoughEstimate(context));
await run('exact', 'exact count (Node)', () => measureExactCountNode(context));
await run('compress', 'compress() (Node)', () => measureCompress(context));
await run('replay', 'replay (Node)', () => measureReplay(context));
await run('fidelity', 'fact extraction and survival (Node)', () => measureFidelityFigures(context));
const importFiles: { path: string; bytes: number; messages: number }[] = [];
for (const megabytes of options.importMegabytes) {
  const parsed = await run(['import', 'browser'], `import ${megabytes} MiB, core parse (Node)`, () =>
    measureImportNode(context, megabytes),
  );
  if (parsed) importFiles.push({ path: parsed.path, bytes: parsed.bytes, messages: parsed.messages });
}
await run('cache', 'prompt caching cost', () => measurePromptCacheCost(context));
await run('compare', 'session simulation and comparison (Node)', () => measureCompare(context));

if (options.browser && wanted(['browser', 'import', 'large-session'])) {
  let session: BrowserSession | null = null;
  const stop = (): void => {
    void (session?.close() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    session = await startBrowserSession((line) => context.log(line));
    machine.chromium = session.chromiumVersion;
    const browserSession = session;
    await run('browser', 'main bundle size', () => measureBundleSize(context, browserSession.appDir));
    await run('browser', 'exact count in the worker (Chromium)', () =>
      measureWorkerCount(context, browserSession),
    );
    for (const file of importFiles) {
      await run(
        ['browser', 'import'],
        `import ${Math.round(file.bytes / 2 ** 20)} MiB through the app (Chromium)`,
        () => measureImportBrowser(context, browserSession, file),
      );
    }
    await run('browser', 'redraw after a setting change (Chromium)', () =>
      measureRedraw(context, browserSession),
    );
    await run(['browser', 'large-session'], '50,000-message session toured (Chromium)', () =>
      measureLargeSessionBrowser(context, browserSession),
    );
  } catch (error) {
    failures += 1;
    console.error(
      `[${elapsed()}] the browser part failed: ${error instanceof Error ? error.stack : String(error)}`,
    );
    skips.push(...browserSkips(`the browser part failed: ${String(error).split('\n')[0]}`));
  } finally {
    await session?.close();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
} else if (options.only === null) {
  skips.push(...browserSkips('--no-browser'));
}

const results: BenchResultsFile = { machine, results: [...rows.map(toResult), ...skips.map(skipToResult)] };
writeFileSync(RESULTS_PATH, `${JSON.stringify(results, null, 2)}\n`);

const missed = rows.filter((row) => row.met === false);
console.log(`\n${formatMachine(machine)}\n`);
console.log(formatTable(rows, skips));
console.log(
  `\ntargets: ${rows.filter((row) => row.met === true).length} met, ${missed.length} missed` +
    `${missed.length > 0 ? ` (${missed.map((row) => `${row.name}${row.size === null ? '' : ` @ ${row.size}`}`).join('; ')})` : ''}; ` +
    `${skips.length} not measured`,
);
console.log(
  `wrote ${RESULTS_PATH} in ${elapsed().trim()}; load average now ${describeMachine(null).loadAverage.join(' / ')}`,
);
process.exit(failures > 0 ? 1 : 0);
