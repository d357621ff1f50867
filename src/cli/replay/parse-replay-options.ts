import { DEFAULT_STRATEGY, findStrategy, STRATEGY_NAMES } from '../../core/strategies/strategy-registry.ts';
import type { Strategy } from '../../core/strategies/strategy.ts';
import { ESTIMATORS, isEstimator, type Estimator } from '../../core/tokens/estimator.ts';
import {
  isTranscriptFormat,
  TRANSCRIPT_FORMATS,
} from '../../core/import/formats/transcript-format-registry.ts';
import type { TranscriptFormat } from '../../core/transcript/transcript.ts';
import { err, ok, type Result } from '../../core/shared/result.ts';

export interface ReplayOptions {
  file: string;
  /** The strategy `--preset` (or `--strategy`) names; the default is Hermes 2026-04. */
  strategy: Strategy;
  /** `--option key=value`: settings of other tools' strategies (`codex.triggerPercent=80`). */
  strategyOptions: Record<string, number>;
  /** The model whose prices the ledger uses; the transcript's own when absent. */
  model: string | null;
  /** `--list-strategies`: print every strategy's name and summary, then stop. */
  listStrategies: boolean;
  contextLength: number | null;
  threshold: number | null;
  targetRatio: number | null;
  protectLastN: number | null;
  protectFirstN: number | null;
  focus: string | null;
  estimator: Estimator;
  format: TranscriptFormat | null;
  json: boolean;
  importOnly: boolean;
  /** Compress even when the trigger would not fire (a manual `/compress`). */
  force: boolean;
}

export const REPLAY_USAGE =
  'usage: npm run replay -- FILE [--preset STRATEGY] [--context-length N] [--threshold F] [--target-ratio F] ' +
  '[--protect-last-n N] [--protect-first-n N] [--option KEY=VALUE]… [--focus TEXT] ' +
  '[--estimator rough|o200k_base|cl100k_base] [--model ID] [--format FORMAT] [--force] [--import-only] [--json]; ' +
  'npm run replay -- --list-strategies';

/** Parses argv (without node and script). Errors are one line, for exit status 2. */
export function parseReplayOptions(argv: readonly string[]): Result<ReplayOptions, string> {
  const options: ReplayOptions = {
    file: '',
    strategy: DEFAULT_STRATEGY,
    strategyOptions: {},
    model: null,
    listStrategies: false,
    contextLength: null,
    threshold: null,
    targetRatio: null,
    protectLastN: null,
    protectFirstN: null,
    focus: null,
    estimator: 'rough',
    format: null,
    json: false,
    importOnly: false,
    force: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const [flag, inlineValue] =
      raw.startsWith('--') && raw.includes('=') ? raw.split(/=(.*)/s, 2) : [raw, undefined];
    const takeValue = (): string | null => inlineValue ?? argv[++i] ?? null;
    const number = (name: string, integer: boolean, min: number, max: number): Result<number, string> => {
      const text = takeValue();
      const value = text === null ? Number.NaN : Number(text);
      if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
        return err(
          `${name} expects ${integer ? 'an integer' : 'a number'} in [${min}, ${max}], got '${text ?? ''}'`,
        );
      }
      return ok(value);
    };
    let parsed: Result<number, string> | null = null;
    switch (flag) {
      case '--preset':
      case '--strategy': {
        const value = takeValue() ?? '';
        const strategy = findStrategy(value);
        if (!strategy) return err(`${flag} expects one of ${STRATEGY_NAMES.join(', ')}, got '${value}'`);
        options.strategy = strategy;
        break;
      }
      case '--option': {
        const value = takeValue() ?? '';
        const match = /^([\w.-]+)=(-?\d+(?:\.\d+)?)$/.exec(value);
        if (!match) return err(`--option expects KEY=NUMBER (e.g. codex.triggerPercent=80), got '${value}'`);
        options.strategyOptions[match[1]!] = Number(match[2]);
        break;
      }
      case '--model':
        options.model = takeValue();
        if (!options.model) return err('--model expects a model id');
        break;
      case '--list-strategies':
        options.listStrategies = true;
        break;
      case '--context-length':
        parsed = number('--context-length', true, 1024, 100_000_000);
        if (parsed.ok) options.contextLength = parsed.value;
        break;
      case '--threshold':
        parsed = number('--threshold', false, 0.01, 1);
        if (parsed.ok) options.threshold = parsed.value;
        break;
      case '--target-ratio':
        parsed = number('--target-ratio', false, 0, 1);
        if (parsed.ok) options.targetRatio = parsed.value;
        break;
      case '--protect-last-n':
        parsed = number('--protect-last-n', true, 0, 1_000_000);
        if (parsed.ok) options.protectLastN = parsed.value;
        break;
      case '--protect-first-n':
        parsed = number('--protect-first-n', true, 0, 1_000_000);
        if (parsed.ok) options.protectFirstN = parsed.value;
        break;
      case '--focus':
        options.focus = takeValue();
        if (options.focus === null) return err('--focus expects a text');
        break;
      case '--estimator': {
        const value = takeValue() ?? '';
        if (!isEstimator(value)) return err(`--estimator expects ${ESTIMATORS.join('|')}, got '${value}'`);
        options.estimator = value;
        break;
      }
      case '--format': {
        const value = takeValue() ?? '';
        if (!isTranscriptFormat(value)) {
          return err(`--format expects one of ${TRANSCRIPT_FORMATS.join(', ')}, got '${value}'`);
        }
        options.format = value;
        break;
      }
      case '--json':
        options.json = true;
        break;
      case '--import-only':
        options.importOnly = true;
        break;
      case '--force':
        options.force = true;
        break;
      case '--help':
      case '-h':
        return err(REPLAY_USAGE);
      default:
        if (flag.startsWith('--')) return err(`unknown option ${flag}`);
        if (options.file) return err(`only one FILE is accepted (got '${options.file}' and '${flag}')`);
        options.file = flag;
    }
    if (parsed && !parsed.ok) return parsed;
  }
  if (!options.file && !options.listStrategies) return err(`no FILE given; ${REPLAY_USAGE}`);
  const known = new Set(options.strategy.options.map((option) => option.key));
  for (const key of Object.keys(options.strategyOptions)) {
    if (!known.has(key)) {
      const names = [...known].join(', ') || 'none';
      return err(`--option ${key} is not a setting of ${options.strategy.name} (its settings: ${names})`);
    }
  }
  return ok(options);
}
