import { getContext } from 'svelte';
import type { SessionsState } from './sessions-state.svelte.ts';
import type { UsageState } from './usage-state.svelte.ts';

const SESSIONS_STATE_KEY = Symbol('sessions-state');
const USAGE_STATE_KEY = Symbol('usage-state');

/**
 * The root context entries of the sessions and usage panels. `main.ts` passes them to `mount`
 * (and tests to `render`), so the inspector tabs find their state without props, as every tab does.
 */
export function sessionsPanelContext(sessions: SessionsState, usage: UsageState): Map<symbol, unknown> {
  return new Map<symbol, unknown>([
    [SESSIONS_STATE_KEY, sessions],
    [USAGE_STATE_KEY, usage],
  ]);
}

export function useSessionsState(): SessionsState {
  const state = getContext<SessionsState | undefined>(SESSIONS_STATE_KEY);
  if (!state) throw new Error('SessionsState is not provided: mount the UI through main.ts');
  return state;
}

export function useUsageState(): UsageState {
  const state = getContext<UsageState | undefined>(USAGE_STATE_KEY);
  if (!state) throw new Error('UsageState is not provided: mount the UI through main.ts');
  return state;
}
