import type { Preset } from './preset.ts';

/** Hermes at commit 3cb43df (2026-04-24): the generation the seed documents describe. */
export const HERMES_2026_04: Preset = {
  name: 'hermes-2026-04',
  estimation: {
    messageSize: 'full-repr',
    requestRounding: 'once',
    toolsSize: 'repr',
    tailWeight: 'content-and-arguments',
  },
  thresholds: {
    smallWindowFloor: null,
    reservesMaxTokens: false,
    guardsSwallowedWindow: false,
    summaryTokensCeiling: 12_000,
  },
  pruning: {
    boundaryWeight: 'text-parts',
    boundaryFloor: 'index-max',
    stripsOldImages: false,
    oldPlaceholderMatch: 'prefix',
    oneLiners: 'legacy',
  },
  boundaries: {
    head: 'first-n-including-system',
    minTail: 'three',
    maxTailMessageFloor: 3,
    rewalksAtRawBudget: false,
    lastUserSkipsSummaries: false,
    causalCoupling: false,
    lastAssistantAnchor: false,
    finalForwardAlign: false,
  },
  summary: {
    serialization: 'raw',
    prompt: 'handoff',
    maxTokensFactor: 1.3,
    autoFocus: false,
    rehydratesPreviousSummary: false,
    answerHandling: 'plain',
    failureHandling: 'legacy',
    fallback: 'static-note',
  },
  assembly: {
    summaryDetection: 'legacy-and-current',
    forcesUserRole: false,
    standaloneSummary: 'bare',
    mergeIntoTail: 'prepend',
    orphanCalls: 'stub',
    stripsHistoricalMedia: false,
    stripsPersistenceMarker: false,
  },
  gates: {
    antiThrash: 'in-compress',
    fixedHygieneMessageLimit: 400,
    apiStubNamesTool: false,
  },
};
