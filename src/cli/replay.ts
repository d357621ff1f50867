/**
 * Replay CLI (SPEC §2.1): npm run replay -- FILE [--preset STRATEGY] [--context-length N] [--threshold F]
 * [--target-ratio F] [--protect-last-n N] [--protect-first-n N] [--option KEY=VALUE]… [--focus TEXT]
 * [--estimator rough|o200k_base|cl100k_base] [--model ID] [--format F] [--force] [--import-only] [--json];
 * `--list-strategies` prints every strategy with its one-line summary.
 * Compresses only when the trigger fires (or with --force), and never applies a compaction
 * that would grow the context. A bad file or bad option exits 2 with one line on stderr.
 */
import { readFileSync } from 'node:fs';
import { importTranscript } from '../core/import/import-transcript.ts';
import { sniffTextEncoding } from '../core/import/sniff-text-encoding.ts';
import {
  escapeControlCharacters,
  escapeJsonControlCharacters,
} from '../core/shared/escape-control-characters.ts';
import { plural } from '../core/shared/plural.ts';
import { STRATEGIES } from '../core/strategies/strategy-registry.ts';
import { formatReplayReport } from './replay/format-replay-report.ts';
import { parseReplayOptions } from './replay/parse-replay-options.ts';
import { runReplay } from './replay/run-replay.ts';

/** Messages quote the file (names, lines, values): its control characters never reach the terminal raw. */
function exitWith(message: string): never {
  console.error(`replay: ${escapeControlCharacters(message.replace(/\s*\n\s*/g, ' '))}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const parsed = parseReplayOptions(process.argv.slice(2));
  if (!parsed.ok) exitWith(parsed.error);
  const options = parsed.value;
  if (options.listStrategies) {
    const width = Math.max(...STRATEGIES.map((strategy) => strategy.name.length));
    for (const strategy of STRATEGIES) console.log(`${strategy.name.padEnd(width)}  ${strategy.summary}`);
    return;
  }

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

  const importStarted = performance.now();
  const imported = importTranscript(text, options.format ? { format: options.format } : {});
  const importMs = performance.now() - importStarted;
  if (!imported.ok) exitWith(`${options.file}: ${imported.error.message}`);

  if (options.importOnly) {
    const { transcript, warnings } = imported.value;
    const payload = {
      format: transcript.metadata.format,
      messages: transcript.messages,
      warnings,
      metadata: transcript.metadata,
    };
    if (options.json) console.log(escapeJsonControlCharacters(JSON.stringify(payload)));
    else {
      console.log(
        `${transcript.metadata.format}: ${plural(transcript.messages.length, 'message')}, ${plural(warnings.length, 'warning')}`,
      );
      for (const warning of warnings) {
        const where = warning.line !== undefined ? `line ${warning.line}: ` : '';
        console.log(`  ${where}${escapeControlCharacters(warning.reason)}`);
      }
    }
    return;
  }

  const outcome = await runReplay(imported.value, options, importMs, Date.now);
  console.log(
    options.json
      ? escapeJsonControlCharacters(JSON.stringify(outcome.report))
      : escapeControlCharacters(formatReplayReport(imported.value, outcome), true),
  );
}

main().catch((error: unknown) => exitWith(error instanceof Error ? error.message : String(error)));
