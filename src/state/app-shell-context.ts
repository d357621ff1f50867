import { getContext } from 'svelte';
import type { AppUpdateState } from './app-update-state.svelte.ts';
import type { NetworkStatus } from './network-status.svelte.ts';

const APP_UPDATE_KEY = Symbol('app-update-state');
const NETWORK_STATUS_KEY = Symbol('network-status');

/** The root context entries of the installable app's shell: updates and the network's state. */
export function appShellContext(update: AppUpdateState, network: NetworkStatus): Map<symbol, unknown> {
  return new Map<symbol, unknown>([
    [APP_UPDATE_KEY, update],
    [NETWORK_STATUS_KEY, network],
  ]);
}

export function useAppUpdate(): AppUpdateState {
  const state = getContext<AppUpdateState | undefined>(APP_UPDATE_KEY);
  if (!state) throw new Error('AppUpdateState is not provided: mount the UI through main.ts');
  return state;
}

export function useNetworkStatus(): NetworkStatus {
  const state = getContext<NetworkStatus | undefined>(NETWORK_STATUS_KEY);
  if (!state) throw new Error('NetworkStatus is not provided: mount the UI through main.ts');
  return state;
}
