import type { VectorAdapter } from '../vector-adapter.ts';

/**
 * Vector file name → adapter. Each adapter lives in its own file next to this one and
 * calls the real core functions; a file with no adapter is reported, never a crash.
 */
export const adaptersByFile: Record<string, VectorAdapter> = {};
