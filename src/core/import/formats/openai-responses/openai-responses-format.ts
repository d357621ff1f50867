import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import type { DocumentFormatSpec, FormatEvidence } from '../transcript-format-spec.ts';
import { isResponsesItem } from './is-responses-item.ts';
import { openAiResponsesDocumentToDraft } from './parse-openai-responses-transcript.ts';

export const openAiResponsesFormat: DocumentFormatSpec<'openai-responses'> = {
  id: 'openai-responses',
  label: 'OpenAI Responses JSON',
  expectation:
    'a Responses request with an "input" list of items, a response with an "output" list, or a bare list of items (message, function_call, function_call_output, reasoning, compaction)',
  fileExtensions: ['.json'],
  layout: 'document',
  detect: { document: detectOpenAiResponses },
  parse: openAiResponsesDocumentToDraft,
};

function detectOpenAiResponses(value: unknown): FormatEvidence | null {
  if (Array.isArray(value)) {
    return holdsResponsesItems(value)
      ? { confidence: 0.92, reason: 'a list of Responses items ("type":"message", "function_call", …)' }
      : null;
  }
  if (!isPlainObject(value)) return null;
  if (value.object === 'response' || value.object === 'response.compaction') {
    return Array.isArray(value.output)
      ? { confidence: 0.95, reason: `a Responses API "${value.object}" object with "output" items` }
      : null;
  }
  for (const key of ['input', 'output'] as const) {
    const list = value[key];
    if (Array.isArray(list) && holdsResponsesItems(list)) {
      return { confidence: 0.95, reason: `an "${key}" list of Responses items` };
    }
  }
  if (typeof value.input === 'string' && ('instructions' in value || 'model' in value)) {
    return { confidence: 0.85, reason: 'a Responses request with a text "input"' };
  }
  return null;
}

/** Items inspected: a list often opens with plain `{role, content}` messages both APIs accept. */
const ITEMS_INSPECTED = 50;

function holdsResponsesItems(items: readonly unknown[]): boolean {
  const inspected = Math.min(items.length, ITEMS_INSPECTED);
  for (let index = 0; index < inspected; index += 1) {
    const item = items[index];
    if (isPlainObject(item) && isResponsesItem(item)) return true;
  }
  return false;
}
