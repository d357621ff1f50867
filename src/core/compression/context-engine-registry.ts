/**
 * Context engines by name. The compressor is always there under `compressor`; others are
 * registered by the app and only used when the settings name them. Asking for an unknown name
 * is an error value, never a silent fallback to some other engine.
 */
import { err, ok, type Result } from '../shared/result.ts';
import {
  COMPRESSOR_ENGINE_NAME,
  type CompressorEngineOptions,
  createCompressorEngine,
} from './compressor-engine.ts';
import type { ContextEngine } from './context-engine.ts';

export const DEFAULT_CONTEXT_ENGINE = COMPRESSOR_ENGINE_NAME;

/** What an engine factory receives: the same dependencies the compressor needs. */
export type ContextEngineDeps = CompressorEngineOptions;
export type ContextEngineFactory = (deps: ContextEngineDeps) => ContextEngine;

export interface UnknownContextEngine {
  readonly type: 'UnknownContextEngine';
  readonly name: string;
  readonly available: readonly string[];
}

export interface ContextEngineRegistry {
  /** Registered names, the default first. */
  names(): string[];
  register(name: string, factory: ContextEngineFactory): void;
  create(name: string, deps: ContextEngineDeps): Result<ContextEngine, UnknownContextEngine>;
}

export function createContextEngineRegistry(): ContextEngineRegistry {
  const factories = new Map<string, ContextEngineFactory>([[DEFAULT_CONTEXT_ENGINE, createCompressorEngine]]);
  return {
    names: () => [...factories.keys()],
    register(name, factory) {
      factories.set(name, factory);
    },
    create(name, deps) {
      const factory = factories.get(name);
      if (!factory) return err({ type: 'UnknownContextEngine', name, available: [...factories.keys()] });
      return ok(factory(deps));
    },
  };
}
