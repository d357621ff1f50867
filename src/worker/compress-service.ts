import { compress } from '../core/compression/compress.ts';
import { INITIAL_COMPRESSOR_STATE, type CompressorState } from '../core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '../core/compression/offline-summarizer.ts';
import type { Summarizer, SummaryRequest } from '../core/compression/summarizer.ts';
import type { CompressionConfig } from '../core/config/compression-config.ts';
import { diffCompression } from '../core/lab/compression-diff.ts';
import type { LabCompression } from '../core/lab/lab-compression.ts';
import { getPreset } from '../core/presets/preset.ts';
import type { PresetName } from '../core/presets/preset-name.ts';
import { err, ok, type Result } from '../core/shared/result.ts';
import type { Message } from '../core/transcript/message.ts';

export interface LabCompressOptions {
  readonly preset: PresetName;
  readonly config: CompressionConfig;
  readonly state?: CompressorState;
  readonly focusTopic?: string;
  /** `YYYY-MM-DD` for 2026-07's temporal anchoring; the page knows the user's date. */
  readonly today?: string | null;
  readonly mainModel?: string | null;
  /** The request estimate the trigger used (2026-04 scores savings against it). */
  readonly currentTokens?: number;
}

/** A summariser on the page (it owns provider keys and network calls), reached through comlink. */
export interface RemoteSummarizer {
  readonly label: string;
  readonly summarize: (request: SummaryRequest) => Promise<string>;
}

/**
 * Runs core `compress()` on the worker's copy of a transcript, as a manual `/compress` (force:
 * the failure cooldown is cleared), with the offline summariser or the page's. Returns the
 * result with its before/after diff; an unexpected failure comes back as data, not a throw.
 */
export async function runCompression(
  messages: readonly Message[],
  options: LabCompressOptions,
  remote: RemoteSummarizer | null,
): Promise<Result<LabCompression, { message: string }>> {
  const summarizer: Summarizer = remote
    ? { label: remote.label, offline: false, summarize: (request) => remote.summarize(request) }
    : createOfflineSummarizer();
  const started = performance.now();
  try {
    const result = await compress(
      messages,
      {
        config: options.config,
        preset: getPreset(options.preset),
        state: options.state ?? INITIAL_COMPRESSOR_STATE,
        force: true,
        today: options.today ?? null,
        mainModel: options.mainModel ?? null,
        ...(options.focusTopic ? { focusTopic: options.focusTopic } : {}),
        ...(options.currentTokens !== undefined ? { currentTokens: options.currentTokens } : {}),
      },
      { summarizer, now: () => Date.now() },
    );
    const elapsedMs = performance.now() - started;
    const diff = diffCompression(messages, result.messages, result.skipped ? null : result.boundaries);
    return ok({ result, diff, summarizerLabel: summarizer.label, offline: summarizer.offline, elapsedMs });
  } catch (error) {
    return err({ message: error instanceof Error ? error.message : String(error) });
  }
}
