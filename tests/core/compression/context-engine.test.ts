import { describe, expect, it } from 'vitest';
import { createCompressorEngine } from '#core/compression/compressor-engine.ts';
import {
  createContextEngineRegistry,
  DEFAULT_CONTEXT_ENGINE,
} from '#core/compression/context-engine-registry.ts';
import type { ContextEngine } from '#core/compression/context-engine.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { conversation, recordingSummarizer, system } from './message-builders.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const deps = () => ({
  config: { ...DEFAULT_COMPRESSION_CONFIG },
  preset: HERMES_2026_07,
  summarizer: recordingSummarizer(),
  now: () => 0,
});

describe('createContextEngineRegistry', () => {
  it('offers the compressor by default', () => {
    const registry = createContextEngineRegistry();
    expect(registry.names()).toEqual([DEFAULT_CONTEXT_ENGINE]);
    const created = registry.create('compressor', deps());
    expect(created.ok && created.value.name).toBe('compressor');
  });

  it('returns an error value for an unknown engine instead of falling back', () => {
    const created = createContextEngineRegistry().create('lcm', deps());
    expect(created).toEqual({
      ok: false,
      error: { type: 'UnknownContextEngine', name: 'lcm', available: ['compressor'] },
    });
  });

  it('creates registered engines by name', () => {
    const registry = createContextEngineRegistry();
    const custom: ContextEngine = {
      name: 'noop',
      shouldCompress: () => false,
      compress: () => Promise.reject(new Error('unused')),
      updateFromResponse: () => undefined,
      onSessionStart: () => undefined,
      onSessionEnd: () => undefined,
    };
    registry.register('noop', () => custom);
    const created = registry.create('noop', deps());
    expect(created.ok && created.value).toBe(custom);
  });
});

describe('createCompressorEngine', () => {
  it('threads its state through compress and response usage', async () => {
    const engine = createCompressorEngine(deps());
    expect(engine.shouldCompress(150_000)).toBe(true);
    await engine.compress([system(), ...conversation(30, 2000)]);
    expect(engine.state.compressionCount).toBe(1);
    engine.updateFromResponse({ prompt_tokens: 1234 });
    expect(engine.state.lastPromptTokens).toBe(1234);
  });

  it('keeps the breakers across a compaction rotation and resets them for a new session', () => {
    const engine = createCompressorEngine(deps());
    engine.setState({ ...engine.state, fallbackStreak: 2, cooldownUntilMs: 99 });
    engine.onSessionStart('child', { boundaryReason: 'compression', oldSessionId: 'parent' });
    expect(engine.state).toMatchObject({ fallbackStreak: 2, cooldownUntilMs: 0 });
    engine.onSessionStart('fresh', { boundaryReason: 'new' });
    expect(engine.state.fallbackStreak).toBe(0);
  });

  it('forgets per-session summary state at a session end', () => {
    const engine = createCompressorEngine(deps());
    engine.setState({ ...engine.state, previousSummary: 'x', ineffectiveCount: 2 });
    engine.onSessionEnd('s', 'user_exit');
    expect(engine.state).toMatchObject({ previousSummary: null, ineffectiveCount: 0 });
  });
});
