/**
 * Compare CLI (ROUND2 §2): npm run compare -- FILE [--strategies a,b,…] [--context-length N]
 * [--model M] [--provider P] [--format F] [--no-simulation] [--json]
 * Imports a transcript and compares strategies on it: per strategy the compaction at the current
 * point (forced, offline summariser), its fidelity and ledger, and the whole session replayed.
 * Prints a table, or one JSON object. A bad file or bad option exits 2 with one line on stderr.
 */
import { readFileSync } from 'node:fs';
import { comparisonReport } from '../core/comparison/comparison-report.ts';
import { importTranscript } from '../core/import/import-transcript.ts';
import { sniffTextEncoding } from '../core/import/sniff-text-encoding.ts';
import { oneLine } from './compare/escape-control-characters.ts';
import { formatCompareTable } from './compare/format-compare-table.ts';
import { parseCompareOptions } from './compare/parse-compare-options.ts';
import { runCompare } from './compare/run-compare.ts';

function exitWith(message: string): never {
  console.error(oneLine(`compare: ${message}`));
  process.exit(2);
}

async function main(): Promise<void> {
  const parsed = parseCompareOptions(process.argv.slice(2));
  if (!parsed.ok) exitWith(parsed.error);
  const options = parsed.value;

  let text: string;
  try {
    // UTF-16 files (a byte order mark, or zero bytes between ASCII) are decoded as such.
    const bytes = readFileSync(options.file);
    text = new TextDecoder(sniffTextEncoding(bytes)).decode(bytes);
  } catch (error) {
    exitWith(
      `cannot read ${options.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const imported = importTranscript(text, options.format ? { format: options.format } : {});
  if (!imported.ok) exitWith(`${options.file}: ${imported.error.message}`);

  const compared = await runCompare(imported.value, options);
  if (!compared.ok) exitWith(`${options.file}: ${compared.error.message}`);
  console.log(
    options.json
      ? JSON.stringify(comparisonReport(compared.value, options.file))
      : formatCompareTable(compared.value, options.file),
  );
}

main().catch((error: unknown) => exitWith(error instanceof Error ? error.message : String(error)));
