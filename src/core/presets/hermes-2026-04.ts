import {
  BILLING_ERROR_CODES_2026_04,
  BILLING_PATTERNS_2026_04,
  CONTEXT_OVERFLOW_PATTERNS_2026_04,
} from '../errors/error-patterns.ts';
import { COMPRESSION_NOTE_2026_04, SUMMARY_PREFIX_2026_04 } from '../compression/markers.ts';
import { PRICE_SNAPSHOT_2026_04 } from '../usage/price-table.ts';
import type { Preset } from './preset.ts';

/** Hermes at commit 3cb43df (2026-04-24): the generation the seed documents describe. */
export const HERMES_2026_04: Preset = {
  name: 'hermes-2026-04',
  upstream: { commit: '3cb43df', date: '2026-04-24' },
  markers: { summaryPrefix: SUMMARY_PREFIX_2026_04, compressionNote: COMPRESSION_NOTE_2026_04 },
  prices: PRICE_SNAPSHOT_2026_04,
  sessionSchemaVersion: 8,
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
    apiRepairsToolCalls: false,
  },
  loop: {
    preflight: 'threshold-only',
    guaranteesRealUserMessage: false,
    hygieneInput: 'text-user-assistant',
  },
  recovery: {
    contextProbeTiers: [128_000, 64_000, 32_000, 16_000, 8_000],
    parsesServerLimitWording: false,
    outputCapErrors: 'anthropic-available-tokens',
    windowAfterOverflow: 'parse-or-step-down',
    capsOutputRoomByLocalEstimate: false,
    judgesProgressByTokens: false,
    stripsToolImagesOnPayloadTooLarge: false,
  },
  errors: {
    catalogue: 'base',
    billingPatterns: BILLING_PATTERNS_2026_04,
    overflowPatterns: CONTEXT_OVERFLOW_PATTERNS_2026_04,
    billingCodes: BILLING_ERROR_CODES_2026_04,
    rateLimitTypeImpliesStatus: false,
    readsNestedErrorCodes: false,
    classifiesMediaAndEncryptedErrors: false,
    detectsEmptyResponseAdvisories: false,
    largeSessionMaxWindow: null,
  },
  caching: {
    markers: 'every-message',
    policy: 'claude-routes',
  },
  usage: {
    readsPromptCacheHitTokens: false,
    readsChatReasoningTokens: false,
    pricesBedrock: false,
    retriesNormalizedModelIds: false,
  },
  persistence: {
    scalesBudgetsToWindow: false,
    capsRegistryThresholds: false,
    fileNames: 'raw-id',
    writeCommand: 'heredoc',
  },
  sessions: {
    continuationChoice: 'latest-started-after-end',
    resumeFollowsContinuations: false,
    compaction: 'rotate',
  },
};
