import {
  BILLING_ERROR_CODES,
  BILLING_PATTERNS,
  CONTEXT_OVERFLOW_PATTERNS,
} from '../errors/error-patterns.ts';
import { COMPRESSION_NOTE_2026_07, SUMMARY_PREFIX_2026_07 } from '../compression/markers.ts';
import { PRICE_SNAPSHOT_2026_07 } from '../usage/price-table.ts';
import type { Preset } from './preset.ts';

/** Hermes at commit 9eb7b1a6 (2026-07-22): current upstream. */
export const HERMES_2026_07: Preset = {
  name: 'hermes-2026-07',
  upstream: { commit: '9eb7b1a6', date: '2026-07-22' },
  markers: { summaryPrefix: SUMMARY_PREFIX_2026_07, compressionNote: COMPRESSION_NOTE_2026_07 },
  prices: PRICE_SNAPSHOT_2026_07,
  sessionSchemaVersion: 22,
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
    apiRepairsToolCalls: true,
  },
  loop: {
    preflight: 'gated',
    guaranteesRealUserMessage: true,
    hygieneInput: 'primary-roles',
  },
  recovery: {
    contextProbeTiers: [256_000, 128_000, 64_000, 32_000, 16_000, 8_000],
    parsesServerLimitWording: true,
    outputCapErrors: 'all-shapes',
    windowAfterOverflow: 'provider-stated-only',
    capsOutputRoomByLocalEstimate: true,
    judgesProgressByTokens: true,
    stripsToolImagesOnPayloadTooLarge: true,
  },
  errors: {
    catalogue: 'extended',
    billingPatterns: BILLING_PATTERNS,
    overflowPatterns: CONTEXT_OVERFLOW_PATTERNS,
    billingCodes: BILLING_ERROR_CODES,
    rateLimitTypeImpliesStatus: true,
    readsNestedErrorCodes: true,
    classifiesMediaAndEncryptedErrors: true,
    detectsEmptyResponseAdvisories: true,
    largeSessionMaxWindow: 256_000,
  },
  caching: {
    markers: 'content-aware',
    policy: 'route-table',
  },
  usage: {
    readsPromptCacheHitTokens: true,
    readsChatReasoningTokens: true,
    pricesBedrock: true,
    retriesNormalizedModelIds: true,
  },
  persistence: {
    scalesBudgetsToWindow: true,
    capsRegistryThresholds: true,
    fileNames: 'sanitized',
    writeCommand: 'stdin',
  },
  sessions: {
    continuationChoice: 'best-continuation',
    resumeFollowsContinuations: true,
    compaction: 'in-place',
  },
};
