import { resolveCachePolicy } from '../caching/cache-policy.ts';
import type { AssessmentRoute } from '../lab/assess-compaction.ts';
import type { Preset } from '../presets/preset.ts';

/** Whether requests on this route are prompt-cached: the chat option and the provider's cache policy. */
export const routeCachesPrompts = (route: AssessmentRoute, preset: Preset): boolean =>
  route.promptCaching &&
  resolveCachePolicy(
    { provider: route.provider, model: route.model, baseUrl: route.baseUrl, apiMode: route.apiMode },
    preset,
  ).shouldCache;
