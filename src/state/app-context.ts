import { getContext, setContext } from 'svelte';
import type { AppState } from './app-state.svelte.ts';

const APP_STATE_KEY = Symbol('app-state');

export const provideAppState = (state: AppState): AppState => setContext(APP_STATE_KEY, state);

export function useAppState(): AppState {
  const state = getContext<AppState | undefined>(APP_STATE_KEY);
  if (!state) throw new Error('AppState is not provided: mount the UI through main.ts');
  return state;
}
