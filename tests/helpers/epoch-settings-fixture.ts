import type { CompactionEpochDetails } from '#core/sessions/compaction-epoch.ts';

/** The settings an epoch records for an in-place Hermes 2026-07 compaction with the offline summariser. */
export const IN_PLACE_EPOCH_SETTINGS: CompactionEpochDetails['settings'] = {
  strategy: 'hermes-2026-07',
  strategyLabel: 'Hermes 2026-07',
  mode: 'in-place',
  contextLength: 200_000,
  thresholdPercent: 0.5,
  targetRatio: 0.2,
  protectFirstN: 3,
  protectLastN: 20,
  strategyOptions: {},
  focusTopic: null,
  summarizer: 'Offline summariser (no LLM)',
  model: 'claude-sonnet-4',
};
