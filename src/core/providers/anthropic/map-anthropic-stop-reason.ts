import type { StopReason } from '../stop-reason.ts';

/**
 * @see https://docs.anthropic.com/en/api/messages#response-stop-reason
 */
export function mapAnthropicStopReason(stopReason: string | null | undefined): StopReason {
  switch (stopReason) {
    // A paused server-tool turn is a complete reply for a client that runs no server tools.
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}
