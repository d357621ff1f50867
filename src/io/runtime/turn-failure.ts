import { isLlmError } from '../llm/llm-error.ts';

/** A failure whose message is already the text to show the user. */
export class TurnFailure extends Error {
  override readonly name = 'TurnFailure';
}

/** The plain text shown for a failure. Never the key: `LlmError` messages are redacted at the source. */
export function describeTurnFailure(error: unknown): string {
  if (error instanceof TurnFailure) return error.message;
  if (isLlmError(error)) {
    const status = error.status !== undefined ? ` (HTTP ${error.status})` : '';
    switch (error.kind) {
      case 'stream-cut':
        return `The reply was cut off before it finished${status}: ${error.message}`;
      case 'network':
        return `Could not reach the provider: ${error.message}`;
      case 'timeout':
        return `The provider did not answer in time: ${error.message}`;
      case 'configuration':
      case 'offline':
        return error.message;
      default:
        return `Provider error${status}: ${error.classification?.message ?? error.message}`;
    }
  }
  return error instanceof Error ? error.message : String(error);
}

/** `1.5 s`, or `250 ms` under a second. */
export function formatWait(milliseconds: number): string {
  return milliseconds >= 1000 ? `${(milliseconds / 1000).toFixed(1)} s` : `${Math.round(milliseconds)} ms`;
}
