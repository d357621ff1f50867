/**
 * The manual `/compress` command (hermes-reference §4.6) as the chat input accepts it:
 *
 * - `/compress [focus topic]`: compact now, steering the summary towards the topic;
 * - `/compress here [N]`: summarise everything except the last N exchanges (default 2);
 * - `--preview` / `--dry-run`: report what would happen, change nothing;
 * - `--aggressive` is rejected, as in Hermes.
 *
 * Text that is not a `/compress` command at all gives `null`, so the caller sends it as a message.
 */
import { assertNever } from '../shared/assert-never.ts';
import { err, ok, type Result } from '../shared/result.ts';
import { plural } from '../shared/plural.ts';

/** Hermes' CLI and gateway refuse `/compress` on shorter conversations. */
export const MANUAL_COMPRESS_MIN_MESSAGES = 4;
/** `/compress here` without a count keeps this many exchanges. */
export const DEFAULT_KEPT_EXCHANGES = 2;

export interface CompressCommand {
  /** The focus topic, or null for a plain `/compress`. */
  readonly focusTopic: string | null;
  /** `/compress here [N]`: how many trailing exchanges to keep verbatim; null otherwise. */
  readonly keepExchanges: number | null;
  /** `--preview` or `--dry-run`. */
  readonly preview: boolean;
}

export type CompressCommandError =
  | { readonly type: 'AggressiveNotSupported' }
  | { readonly type: 'InvalidExchangeCount'; readonly value: string };

const COMMAND = '/compress';
const PREVIEW_FLAGS: ReadonlySet<string> = new Set(['--preview', '--dry-run']);

/**
 * @example
 * parseCompressCommand('/compress the auth bug') // ok({ focusTopic: 'the auth bug', keepExchanges: null, preview: false })
 * parseCompressCommand('/compress here 3')       // ok({ focusTopic: null, keepExchanges: 3, preview: false })
 * parseCompressCommand('hello')                  // null
 */
export function parseCompressCommand(text: string): Result<CompressCommand, CompressCommandError> | null {
  const trimmed = text.trim();
  if (trimmed !== COMMAND && !trimmed.startsWith(`${COMMAND} `) && !trimmed.startsWith(`${COMMAND}\n`))
    return null;
  const words = trimmed.slice(COMMAND.length).trim().split(/\s+/).filter(Boolean);
  if (words.includes('--aggressive')) return err({ type: 'AggressiveNotSupported' });
  const preview = words.some((word) => PREVIEW_FLAGS.has(word));
  const rest = words.filter((word) => !PREVIEW_FLAGS.has(word));
  if (rest[0] === 'here' && rest.length <= 2) {
    const countText = rest[1];
    if (countText === undefined)
      return ok({ focusTopic: null, keepExchanges: DEFAULT_KEPT_EXCHANGES, preview });
    if (!/^\d+$/.test(countText) || Number(countText) < 1)
      return err({ type: 'InvalidExchangeCount', value: countText });
    return ok({ focusTopic: null, keepExchanges: Number(countText), preview });
  }
  const focusTopic = rest.join(' ');
  return ok({ focusTopic: focusTopic === '' ? null : focusTopic, keepExchanges: null, preview });
}

/** The user-facing text of a parse error. */
export function describeCompressCommandError(error: CompressCommandError): string {
  switch (error.type) {
    case 'AggressiveNotSupported':
      return '/compress --aggressive is not supported. Use /compress [focus topic] or /compress here [N].';
    case 'InvalidExchangeCount':
      return `/compress here expects a positive number of exchanges to keep, not "${error.value}".`;
    default:
      return assertNever(error);
  }
}

/** The refusal Hermes gives below four messages, or null when `/compress` may run. */
export function manualCompressRefusal(messageCount: number): string | null {
  return messageCount < MANUAL_COMPRESS_MIN_MESSAGES
    ? `Not enough conversation to compress (${plural(messageCount, 'message')}; at least ${MANUAL_COMPRESS_MIN_MESSAGES} needed).`
    : null;
}
