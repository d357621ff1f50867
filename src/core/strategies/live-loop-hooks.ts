/**
 * The live loop's hooks every strategy has (Hermes' `ContextEngine`: `update_from_response`,
 * `on_session_start`, `on_session_end`), as pure functions of the compressor state. The chat
 * runtime calls them through the strategy it runs; the lab never needs them (it has no live
 * provider readings or session boundaries). Every strategy is hosted by a Hermes generation's
 * loop, so they all take that generation's rules.
 */
import { updateFromResponse, type PromptUsage } from '../compression/compression-gates.ts';
import {
  clearFailureCooldown,
  createCompressorState,
  type CompressorState,
} from '../compression/compressor-state.ts';
import type { Preset } from '../presets/preset.ts';

/** Why a session started: a fresh one, a resume, or the child of a compaction rotation. */
export type SessionStartReason = 'new' | 'resume' | 'compression';

export interface LiveLoopHooks {
  /** The usage of a chat response: the anti-thrash verdict and the last prompt count. */
  updateFromResponse(state: CompressorState, usage: PromptUsage, thresholdTokens: number): CompressorState;
  /** A session starts; `state` is what was stored for it (a resume) or what the compaction left. */
  onSessionStart(state: CompressorState, reason: SessionStartReason): CompressorState;
  /** A real session boundary (a new conversation, a reset), never per turn. */
  onSessionEnd(state: CompressorState): CompressorState;
}

export function liveLoopHooks(preset: Preset): LiveLoopHooks {
  return {
    updateFromResponse: (state, usage, thresholdTokens) =>
      updateFromResponse(state, usage, thresholdTokens, preset),
    onSessionStart: (state, reason) => {
      // A compaction rotation continues the same conversation: the fallback streak and the
      // ineffective strikes carry over to the child session, a failure cooldown does not. A
      // resume keeps the state stored with the session; a new session starts clean.
      if (reason === 'compression') return clearFailureCooldown(state);
      return reason === 'resume' ? state : createCompressorState();
    },
    // Nothing per-session may leak into the next session (Hermes `on_session_end`); the count
    // of compactions is the conversation's.
    onSessionEnd: (state) => createCompressorState({ compressionCount: state.compressionCount }),
  };
}
