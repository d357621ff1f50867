/**
 * A live compaction's fidelity and ledger: the fidelity as the worker measured it, the ledger
 * priced from what the provider reported — the summariser responses' usage and the cache figures
 * of the last chat response before the compaction (see `liveCompactionLedger`). Without a
 * provider (the offline summariser) the worker's simulated assessment stands.
 */
import type { CompactionAssessment } from '../../core/lab/assess-compaction.ts';
import type { LabCompression } from '../../core/lab/lab-compression.ts';
import { liveCompactionLedger } from '../../core/ledger/live-compaction-ledger.ts';
import type { Preset } from '../../core/presets/preset.ts';
import { estimateMessageTokensRough } from '../../core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { CanonicalUsage } from '../../core/usage/canonical-usage.ts';
import type { ChatResponse } from '../llm/chat-client.ts';
import { hermesProviderName } from '../llm/provider-settings.ts';
import type { RuntimeSettings } from './runtime-settings.ts';

export interface LiveAssessmentInput {
  readonly settings: RuntimeSettings;
  readonly preset: Preset;
  /** The compaction as the worker returned it (its assessment simulated). */
  readonly result: LabCompression;
  /** What was compacted. */
  readonly before: readonly Message[];
  /** Every summariser response of this compaction attempt. */
  readonly summaryResponses: readonly ChatResponse[];
  /** The last chat response's usage before the compaction; null when there was none. */
  readonly lastUsage: CanonicalUsage | null;
}

export function liveAssessment(input: LiveAssessmentInput): CompactionAssessment | null {
  const simulated = input.result.assessment;
  const provider = input.settings.provider;
  if (!simulated || !provider) return simulated;
  return {
    ...simulated,
    ...liveCompactionLedger({
      model: provider.model,
      route: { provider: hermesProviderName(provider), baseUrl: provider.baseUrl },
      preset: input.preset,
      summaryUsages: input.summaryResponses
        .filter((response) => response.usage.raw !== null)
        .map((response) => response.usage.canonical),
      lastUsage: input.lastUsage,
      before: input.before,
      after: input.result.messages,
      countTokens: (message) => estimateMessageTokensRough(message, input.preset),
      simulatedCache: simulated.cache,
      cacheTtl: input.settings.compression.cacheTtl,
    }),
    summaryMeasured: true,
  };
}
