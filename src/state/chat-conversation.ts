import type { CompressorState } from '../core/compression/compressor-state.ts';
import { requestMessages } from '../core/loop/request-messages.ts';
import { BROWSER_TOOL_SCHEMAS } from '../core/tools/browser-tool-schemas.ts';
import type { Message } from '../core/transcript/message.ts';
import type { Transcript } from '../core/transcript/transcript.ts';

/**
 * The live chat's conversation as the loop holds it after the latest event: one immutable value,
 * replaced whenever the chat changes (a message stored, usage read, a compaction). The workspace
 * shows it while the user chats.
 */
export interface ChatConversation {
  /** Null before the first message of a new chat is stored. */
  readonly sessionId: string | null;
  readonly title: string | null;
  /** The model the chat talks to (the provider settings'); null without a provider. */
  readonly model: string | null;
  /** Kept on the session; every request carries it first. */
  readonly systemPrompt: string;
  /** The stored conversation, without the system prompt. */
  readonly messages: readonly Message[];
  readonly state: CompressorState;
  /** Hermes' `session_entry.last_prompt_tokens`: the last reported prompt count, 0 after a compaction. */
  readonly lastSessionPromptTokens: number;
  /** A smaller window an overflow error revealed for the model; null when none. */
  readonly learnedContextLength: number | null;
}

/**
 * The conversation as the workspace draws it: the request its next turn sends — the system
 * prompt first, the messages, and the tool schemas the chat offers (`requestMessages`).
 */
export function conversationTranscript(conversation: ChatConversation): Transcript {
  const tools = [...BROWSER_TOOL_SCHEMAS];
  return {
    messages: requestMessages(conversation.systemPrompt, conversation.messages),
    metadata: {
      format: 'internal',
      ...(conversation.sessionId !== null ? { sourceSessionId: conversation.sessionId } : {}),
      ...(conversation.title !== null ? { title: conversation.title } : {}),
      ...(conversation.model !== null ? { model: conversation.model } : {}),
      ...(conversation.systemPrompt ? { systemPrompt: conversation.systemPrompt } : {}),
      tools,
      compactionPoints: [],
    },
  };
}
