import type { CompressorState } from '../core/compression/compressor-state.ts';
import type { LabCompression } from '../core/lab/lab-compression.ts';
import type { LabPlan } from '../core/lab/lab-plan.ts';
import type { StoredSessionRef } from './lab-session-store.ts';

export const REPLAY_PHASES = ['prune', 'boundaries', 'summary', 'assembly'] as const;
export type ReplayPhase = (typeof REPLAY_PHASES)[number];

export const REPLAY_PHASE_LABELS: Readonly<Record<ReplayPhase, string>> = {
  prune: '1 · Prune tool outputs',
  boundaries: '2 · Head, middle, tail',
  summary: '3 · Summary',
  assembly: '4 · Assembly',
};

export type ReplayRunStatus = 'idle' | 'planning' | 'summarising' | 'done' | 'error';

export interface ReplayRunInput {
  /** 1 for a replay of the transcript on screen, 2 for a replay of that result, … */
  readonly number: number;
  readonly documentId: string;
  /** Messages of the transcript it compresses (the worker holds them, as `documentId`). */
  readonly messageCount: number;
  readonly compressorState: CompressorState;
  /** The settings the run was made with, to tell when they have changed since. */
  readonly settingsKey: string;
  /** Indices of the pinned messages of what it compresses (the transcript's, or the previous result's). */
  readonly pinned?: readonly number[];
}

/**
 * A run's summariser prompt as the page holds it: its length and start, and all of it on request
 * (a long transcript's prompt runs to megabytes and stays in the worker until copied).
 */
export interface ReplayPrompt {
  readonly chars: number;
  /** The first `PROMPT_PREVIEW_CHARS` characters. */
  readonly preview: string;
  full(): Promise<string>;
}

/**
 * One replayed compression: the plan that explains phases 1–2, then the summary (streamed
 * when a provider writes it) and the assembled result of phases 3–4. `revealed` is how many
 * phases the user has stepped through.
 */
export class ReplayRun {
  readonly number: number;
  readonly documentId: string;
  readonly messageCount: number;
  readonly compressorState: CompressorState;
  readonly settingsKey: string;
  readonly pinned: readonly number[];

  status = $state<ReplayRunStatus>('idle');
  revealed = $state(0);
  plan = $state.raw<LabPlan | null>(null);
  compression = $state.raw<LabCompression | null>(null);
  /** The summariser prompt, as soon as the summariser is called. */
  prompt = $state.raw<ReplayPrompt | null>(null);
  /** The summary as it streams in from a provider. */
  streamedSummary = $state('');
  summarizerLabel = $state('');
  offline = $state(true);
  notices = $state.raw<readonly string[]>([]);
  error = $state<string | null>(null);
  saved = $state.raw<StoredSessionRef | null>(null);

  constructor(input: ReplayRunInput) {
    this.number = input.number;
    this.documentId = input.documentId;
    this.messageCount = input.messageCount;
    this.compressorState = input.compressorState;
    this.settingsKey = input.settingsKey;
    this.pinned = input.pinned ?? [];
  }

  get done(): boolean {
    return this.status === 'done' && this.compression !== null;
  }

  /** The output can be compressed again: something was actually compressed. */
  get compressed(): boolean {
    return this.done && this.compression!.skipped === null;
  }

  addNotice(notice: string): void {
    this.notices = [...this.notices, notice];
  }
}
