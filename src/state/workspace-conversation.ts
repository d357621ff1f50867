import type { CompressorState } from '../core/compression/compressor-state.ts';

/**
 * A chat conversation the workspace shows (the live chat, or a stored chat session): what the
 * plan needs to judge it as the chat's loop does — its compressor state, the prompt count the
 * provider last reported, and whose window it is drawn against. Null in `AppState` for
 * transcripts (imports, the demo, replay results), which are planned as the lab plans them.
 */
export interface WorkspaceConversation {
  readonly state: CompressorState;
  /** Hermes' `session_entry.last_prompt_tokens`: the last reported prompt count, 0 when none. */
  readonly lastSessionPromptTokens: number;
  /** The model whose window applies; null: the provider settings' model, which the live chat uses. */
  readonly model: string | null;
  /** A smaller window an overflow error revealed for the model (the live chat only); null when none. */
  readonly learnedContextLength: number | null;
}
