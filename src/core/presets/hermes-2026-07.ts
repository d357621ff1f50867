import type { Preset } from './preset.ts';

/** Hermes at commit 9eb7b1a6 (2026-07-22): current upstream. */
export const HERMES_2026_07: Preset = {
  name: 'hermes-2026-07',
  estimation: {
    messageSize: 'image-stripped-repr',
    requestRounding: 'per-term',
    toolsSize: 'schema-fields',
    tailWeight: 'envelope',
  },
  thresholds: {
    smallWindowFloor: { windowLimitTokens: 512_000, minPercent: 0.75 },
    reservesMaxTokens: true,
    guardsSwallowedWindow: true,
    summaryTokensCeiling: 10_000,
  },
  pruning: {
    boundaryWeight: 'tail-weight',
    boundaryFloor: 'count-max',
    stripsOldImages: true,
    oldPlaceholderMatch: 'exact',
    oneLiners: 'guarded',
  },
  boundaries: {
    head: 'system-plus-decaying-first-n',
    minTail: 'floor-and-cap',
    maxTailMessageFloor: 8,
    rewalksAtRawBudget: true,
    lastUserSkipsSummaries: true,
    causalCoupling: true,
    lastAssistantAnchor: true,
    finalForwardAlign: true,
  },
  summary: {
    serialization: 'flattened',
    prompt: 'checkpoint',
    maxTokensFactor: null,
    autoFocus: true,
    rehydratesPreviousSummary: true,
    answerHandling: 'grounded',
    failureHandling: 'classified',
    fallback: 'deterministic',
  },
  assembly: {
    summaryDetection: 'all-prefixes-and-merged',
    forcesUserRole: true,
    standaloneSummary: 'marked',
    mergeIntoTail: 'wrap',
    orphanCalls: 'strip',
    stripsHistoricalMedia: true,
    stripsPersistenceMarker: true,
  },
  gates: {
    antiThrash: 'real-usage',
    fixedHygieneMessageLimit: null,
    apiStubNamesTool: true,
  },
};
