import {
  isTranscriptFormat,
  TRANSCRIPT_FORMATS,
} from '../../core/import/formats/transcript-format-registry.ts';
import { err, ok, type Result } from '../../core/shared/result.ts';
import { isStrategyName, STRATEGY_NAMES } from '../../core/strategies/strategy-registry.ts';
import type { StrategyName } from '../../core/strategies/strategy-names.ts';
import type { TranscriptFormat } from '../../core/transcript/transcript.ts';

/** The model the comparison is priced as unless `--model` says otherwise. */
export const DEFAULT_COMPARE_MODEL = 'claude-sonnet-4-6';
export const DEFAULT_COMPARE_PROVIDER = 'anthropic';

export interface CompareOptions {
  file: string;
  /** Registered strategy names, in the order given; every registered one by default. */
  strategies: StrategyName[];
  contextLength: number | null;
  model: string;
  provider: string;
  format: TranscriptFormat | null;
  json: boolean;
  /** Skip the session simulation (only the compaction at the current point). */
  simulate: boolean;
}

export const COMPARE_USAGE =
  'usage: npm run compare -- FILE [--strategies a,b,…] [--context-length N] [--model M] [--provider P] ' +
  `[--format FORMAT] [--no-simulation] [--json]  (strategies: ${STRATEGY_NAMES.join(', ')})`;

/** Parses argv (without node and script). Errors are one line, for exit status 2. */
export function parseCompareOptions(argv: readonly string[]): Result<CompareOptions, string> {
  const options: CompareOptions = {
    file: '',
    strategies: [...STRATEGY_NAMES],
    contextLength: null,
    model: DEFAULT_COMPARE_MODEL,
    provider: DEFAULT_COMPARE_PROVIDER,
    format: null,
    json: false,
    simulate: true,
  };
  for (let index = 0; index < argv.length; index++) {
    const raw = argv[index]!;
    const [flag, inlineValue] =
      raw.startsWith('--') && raw.includes('=') ? raw.split(/=(.*)/s, 2) : [raw, undefined];
    const takeValue = (): string | null => inlineValue ?? argv[++index] ?? null;
    switch (flag) {
      case '--strategies': {
        const names = (takeValue() ?? '')
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
        if (names.length === 0)
          return err(`--strategies expects a comma-separated list of ${STRATEGY_NAMES.join(', ')}`);
        const unknown = names.find((name) => !isStrategyName(name));
        if (unknown !== undefined)
          return err(`--strategies: unknown strategy '${unknown}' (known: ${STRATEGY_NAMES.join(', ')})`);
        options.strategies = names;
        break;
      }
      case '--context-length': {
        const text = takeValue();
        const value = text === null ? Number.NaN : Number(text);
        if (!Number.isInteger(value) || value < 1024 || value > 100_000_000)
          return err(`--context-length expects an integer in [1024, 100000000], got '${text ?? ''}'`);
        options.contextLength = value;
        break;
      }
      case '--model':
      case '--provider': {
        const value = takeValue()?.trim() ?? '';
        if (!value) return err(`${flag} expects a name`);
        if (flag === '--model') options.model = value;
        else options.provider = value;
        break;
      }
      case '--format': {
        const value = takeValue() ?? '';
        if (!isTranscriptFormat(value))
          return err(`--format expects one of ${TRANSCRIPT_FORMATS.join(', ')}, got '${value}'`);
        options.format = value;
        break;
      }
      case '--json':
        options.json = true;
        break;
      case '--no-simulation':
        options.simulate = false;
        break;
      case '--help':
      case '-h':
        return err(COMPARE_USAGE);
      default:
        if (flag.startsWith('--')) return err(`unknown option ${flag}`);
        if (options.file) return err(`only one FILE is accepted (got '${options.file}' and '${flag}')`);
        options.file = flag;
    }
  }
  if (!options.file) return err(`no FILE given; ${COMPARE_USAGE}`);
  return ok(options);
}
