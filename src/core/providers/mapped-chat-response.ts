import type { Message } from '../transcript/message.ts';
import type { StopReason } from './stop-reason.ts';

/** A provider reply mapped to the internal model, with the raw usage kept for normalisation. */
export interface MappedChatResponse {
  /** The assistant message in the internal (OpenAI chat) shape. */
  readonly message: Message;
  readonly stopReason: StopReason;
  readonly rawStopReason: string | null;
  /** The provider's usage object exactly as received (C6: normalise later, keep the raw). */
  readonly usage: Record<string, unknown> | null;
  readonly model: string;
  readonly id: string | null;
}

/** The provider answered with something that is not the expected response shape. */
export interface InvalidProviderResponse {
  readonly type: 'InvalidProviderResponse';
  readonly provider: 'anthropic' | 'openai-compatible';
  readonly details: string;
}
