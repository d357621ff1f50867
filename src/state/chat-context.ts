import { getContext } from 'svelte';
import type { ChatState } from './chat-state.svelte.ts';

const CHAT_STATE_KEY = Symbol('chat-state');

/** The root context entry of the chat tab; `main.ts` passes it to `mount`, like the other panels. */
export function chatPanelContext(chat: ChatState): Map<symbol, unknown> {
  return new Map<symbol, unknown>([[CHAT_STATE_KEY, chat]]);
}

export function useChatState(): ChatState {
  const state = getContext<ChatState | undefined>(CHAT_STATE_KEY);
  if (!state) throw new Error('ChatState is not provided: mount the UI through main.ts');
  return state;
}
