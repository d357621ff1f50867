import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { firstObject, hasAnthropicBlocks } from '../../has-anthropic-blocks.ts';
import type { DocumentFormatSpec, FormatEvidence } from '../transcript-format-spec.ts';
import { openAiChatDocumentToDraft } from './parse-openai-chat-transcript.ts';

export const openAiChatFormat: DocumentFormatSpec<'openai-chat'> = {
  id: 'openai-chat',
  label: 'OpenAI Chat JSON',
  expectation:
    'a JSON object with a "messages" array, a bare array of messages, or a chat.completion response',
  fileExtensions: ['.json'],
  layout: 'document',
  detect: { document: detectOpenAiChat },
  parse: openAiChatDocumentToDraft,
};

/**
 * The most general shape there is, so it claims only what no more specific format would:
 * no top-level `system` and no Anthropic content blocks.
 */
function detectOpenAiChat(value: unknown): FormatEvidence | null {
  if (Array.isArray(value)) {
    const first = firstObject(value);
    if (!first || typeof first.role !== 'string' || hasAnthropicBlocks(value)) return null;
    return { confidence: 0.9, reason: 'a bare array of {role, content} messages' };
  }
  if (!isPlainObject(value)) return null;
  if (Array.isArray(value.choices)) {
    return { confidence: 0.95, reason: 'a chat.completion response with "choices"' };
  }
  if (!Array.isArray(value.messages)) return null;
  if ('system' in value || hasAnthropicBlocks(value.messages)) return null;
  return { confidence: 0.9, reason: 'an object with a "messages" array of {role, content}' };
}
