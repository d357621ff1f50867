import { createLlmError, type LlmCallContext } from './create-llm-error.ts';
import type { LlmError } from './llm-error.ts';

/** Whether the browser believes it has a network connection. */
export type OnlineProbe = () => boolean;

/**
 * `navigator.onLine`, which is reliable in one direction only: `false` means no network
 * interface is up, `true` proves nothing. Outside a browser (Node tests) it counts as online.
 */
export function browserIsOnline(): boolean {
  return (globalThis as { navigator?: { onLine?: unknown } }).navigator?.onLine !== false;
}

const PROVIDER_NAMES: Readonly<Record<LlmCallContext['provider'], string>> = {
  anthropic: 'Anthropic',
  'openai-compatible': 'the OpenAI-compatible endpoint',
};

/**
 * A request that got no answer at all. When the browser says it is offline, that is the
 * reason, said plainly and not retried (`offline`); otherwise it is a `network` failure
 * (refused, DNS, CORS), which the classifier may retry. The check happens after the failure,
 * never before the request: a local server on loopback answers while the browser is offline.
 */
export function networkFailure(detail: string, call: LlmCallContext, isOnline?: OnlineProbe): LlmError {
  if (!(isOnline ?? browserIsOnline)()) {
    return createLlmError(
      {
        kind: 'offline',
        message: `You are offline: ${PROVIDER_NAMES[call.provider]} cannot be reached without a network connection.`,
      },
      call,
    );
  }
  return createLlmError({ kind: 'network', message: `Connection error: ${detail}` }, call);
}
