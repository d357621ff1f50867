/**
 * The built-in context engine: Hermes' `ContextCompressor` behind the `ContextEngine`
 * interface. It owns one `CompressorState` and threads it through the pure functions; the
 * state is readable (and replaceable) so the app can persist it per session.
 */
import type { CompressionConfig } from '../config/compression-config.ts';
import { deriveThresholds } from '../config/derive-thresholds.ts';
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import { compress } from './compress.ts';
import { shouldCompress, updateFromResponse } from './compression-gates.ts';
import { type CompressorState, clearFailureCooldown, createCompressorState } from './compressor-state.ts';
import type { ContextEngine, EngineCompressOptions, SessionStartInfo } from './context-engine.ts';
import type { Summarizer } from './summarizer.ts';

export const COMPRESSOR_ENGINE_NAME = 'compressor';

export interface CompressorEngineOptions {
  readonly config: CompressionConfig;
  readonly preset: Preset;
  readonly summarizer: Summarizer;
  /** Clock in milliseconds. */
  readonly now: () => number;
  /** A persisted state to resume from. */
  readonly state?: CompressorState;
  readonly mainModel?: string | null;
}

export interface CompressorEngine extends ContextEngine {
  /** The current state, to persist. */
  readonly state: CompressorState;
  /** Replaces the state (e.g. after loading a session). */
  setState(state: CompressorState): void;
}

export function createCompressorEngine(options: CompressorEngineOptions): CompressorEngine {
  let state = options.state ?? createCompressorState();
  const thresholdTokens = (): number => deriveThresholds(options.config, options.preset).thresholdTokens;
  return {
    name: COMPRESSOR_ENGINE_NAME,
    get state() {
      return state;
    },
    setState(next: CompressorState) {
      state = next;
    },
    shouldCompress(tokens?: number) {
      return shouldCompress(
        state,
        { thresholdTokens: thresholdTokens(), preset: options.preset, nowMs: options.now() },
        tokens,
      ).compress;
    },
    async compress(messages: readonly Message[], callOptions: EngineCompressOptions = {}) {
      const result = await compress(
        messages,
        {
          config: options.config,
          preset: options.preset,
          state,
          focusTopic: callOptions.focusTopic,
          force: callOptions.force,
          memoryContext: callOptions.memoryContext,
          currentTokens: callOptions.currentTokens,
          today: callOptions.today,
          mainModel: options.mainModel,
        },
        { summarizer: options.summarizer, now: options.now, signal: callOptions.signal },
      );
      state = result.state;
      return result;
    },
    updateFromResponse(usage) {
      state = updateFromResponse(state, usage, thresholdTokens(), options.preset);
    },
    onSessionStart(_sessionId: string, info: SessionStartInfo = {}) {
      // A compaction rotation continues the same conversation: the fallback streak and the
      // ineffective strikes carry over to the child session, a failure cooldown does not.
      // A resume keeps whatever state the app restored with setState; anything else starts clean.
      if (info.boundaryReason === 'compression') state = clearFailureCooldown(state);
      else if (info.boundaryReason !== 'resume') state = createCompressorState();
    },
    onSessionEnd() {
      // Nothing per-session may leak into the next session (Hermes `on_session_end`).
      state = createCompressorState({ compressionCount: state.compressionCount });
    },
  };
}
