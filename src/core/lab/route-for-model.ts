import { lookupModel } from '../models/model-catalog.ts';
import type { AssessmentRoute } from './assess-compaction.ts';

/** The model a replay or a comparison prices with when the transcript names none. */
export const DEFAULT_PRICING_MODEL = 'claude-sonnet-4-6';

/**
 * Where a transcript's model would run, for pricing a replayed compaction: Claude on
 * Anthropic's Messages API (prompt-cached), GPT and o-series on OpenAI, Gemini on Google,
 * anything else through OpenRouter. `vendor/model` ids keep their vendor's route.
 */
export function routeForModel(
  model: string | null,
  cacheTtl: AssessmentRoute['cacheTtl'] = '5m',
): AssessmentRoute {
  const id = (model ?? '').trim() || DEFAULT_PRICING_MODEL;
  const { family } = lookupModel(id);
  const common = { model: id, baseUrl: '', cacheTtl, promptCaching: true } as const;
  switch (family) {
    case 'claude':
      return { ...common, provider: 'anthropic', apiMode: 'anthropic_messages' };
    case 'gpt':
    case 'o-series':
      return { ...common, provider: 'openai', apiMode: 'chat_completions' };
    case 'gemini':
      return { ...common, provider: 'google', apiMode: 'chat_completions' };
    default:
      return { ...common, provider: 'openrouter', apiMode: 'chat_completions' };
  }
}
