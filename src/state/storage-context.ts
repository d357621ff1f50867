import { getContext } from 'svelte';
import type { StorageState } from './storage-state.svelte.ts';

const STORAGE_STATE_KEY = Symbol('storage-state');

/** The root context entry of the storage notices; `main.ts` passes it to `mount`, like the panels. */
export function storageContext(storage: StorageState): Map<symbol, unknown> {
  return new Map<symbol, unknown>([[STORAGE_STATE_KEY, storage]]);
}

export function useStorageState(): StorageState {
  const state = getContext<StorageState | undefined>(STORAGE_STATE_KEY);
  if (!state) throw new Error('StorageState is not provided: mount the UI through main.ts');
  return state;
}
