import type { CacheTtl } from '../../core/caching/apply-cache-control.ts';
import type { AssessmentRoute } from '../../core/lab/assess-compaction.ts';
import { routeForModel } from '../../core/lab/route-for-model.ts';
import type { ChatProvider } from './chat-client.ts';
import { hermesProviderName } from './provider-settings.ts';

export interface AssessmentRouteInput {
  readonly provider: ChatProvider;
  readonly baseUrl: string;
  readonly model: string;
  /** The auxiliary summary model ('' or absent: the main model summarises). */
  readonly auxiliaryModel?: string;
  readonly cacheTtl: CacheTtl;
  readonly promptCaching: boolean;
}

/**
 * Where a compaction is priced: the user's provider, model, base URL, cache TTL and caching
 * switch — the one place that turns provider settings into an `AssessmentRoute`, for the live
 * chat's ledger, the replay's and the comparison's. A transcript recorded with another model
 * (`recordedModel`) is priced as that model ran, on its usual route (`routeForModel`).
 */
export function assessmentRoute(input: AssessmentRouteInput, recordedModel?: string | null): AssessmentRoute {
  const recorded = recordedModel?.trim();
  if (recorded && recorded !== input.model)
    return { ...routeForModel(recorded, input.cacheTtl), promptCaching: input.promptCaching };
  return {
    model: input.model,
    provider: hermesProviderName(input),
    baseUrl: input.baseUrl,
    apiMode: input.provider === 'anthropic' ? 'anthropic_messages' : 'chat_completions',
    cacheTtl: input.cacheTtl,
    promptCaching: input.promptCaching,
    ...(input.auxiliaryModel ? { summaryModel: input.auxiliaryModel } : {}),
  };
}
