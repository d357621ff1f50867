import type { Message } from '../transcript/message.ts';
import type { Transcript } from '../transcript/transcript.ts';

/**
 * The transcript as an OpenAI chat-completions request body without the model:
 * `{"messages":[…],"tools":[…]}`. Keys starting with `_` are in-process flags (see
 * message.ts) and are left out, as they would be before any request.
 */
export function toOpenAiChatJson(transcript: Transcript): string {
  return JSON.stringify({
    messages: transcript.messages.map(withoutInternalKeys),
    tools: transcript.metadata.tools ?? [],
  });
}

function withoutInternalKeys(message: Message): Message {
  // Copy only when needed: generated transcripts have no such keys and can be 100 MB.
  if (!Object.keys(message).some((key) => key.startsWith('_'))) return message;
  return Object.fromEntries(Object.entries(message).filter(([key]) => !key.startsWith('_'))) as Message;
}
