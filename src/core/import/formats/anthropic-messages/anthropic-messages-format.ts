import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { firstObject, hasAnthropicBlocks } from '../../has-anthropic-blocks.ts';
import type { DocumentFormatSpec, FormatEvidence } from '../transcript-format-spec.ts';
import { anthropicMessagesDocumentToDraft } from './parse-anthropic-messages-transcript.ts';

export const anthropicMessagesFormat: DocumentFormatSpec<'anthropic-messages'> = {
  id: 'anthropic-messages',
  label: 'Anthropic Messages JSON',
  expectation: 'a Messages request with "messages" (content blocks) or a response with "type":"message"',
  fileExtensions: ['.json'],
  layout: 'document',
  detect: { document: detectAnthropicMessages },
  parse: anthropicMessagesDocumentToDraft,
};

function detectAnthropicMessages(value: unknown): FormatEvidence | null {
  if (Array.isArray(value)) {
    const first = firstObject(value);
    if (!first || typeof first.role !== 'string' || !hasAnthropicBlocks(value)) return null;
    return { confidence: 0.8, reason: 'an array of messages with Anthropic content blocks' };
  }
  if (!isPlainObject(value)) return null;
  if (value.type === 'message' && value.role === 'assistant' && Array.isArray(value.content)) {
    return { confidence: 0.95, reason: 'a Messages API response ("type":"message")' };
  }
  if (!Array.isArray(value.messages)) return null;
  if (typeof value.system === 'string' || Array.isArray(value.system)) {
    return { confidence: 0.9, reason: 'a Messages request with a top-level "system"' };
  }
  if (hasAnthropicBlocks(value.messages)) {
    return { confidence: 0.85, reason: 'messages carry Anthropic content blocks (tool_use, tool_result)' };
  }
  return null;
}
