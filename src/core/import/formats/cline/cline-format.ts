import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { firstObject } from '../../has-anthropic-blocks.ts';
import type { DocumentFormatSpec, FormatEvidence } from '../transcript-format-spec.ts';
import { clineResultToolName } from './cline-result-header.ts';
import { clineDocumentToDraft } from './parse-cline-transcript.ts';

/** Messages inspected for Cline's marks. */
const MESSAGES_INSPECTED = 50;

export const clineFormat: DocumentFormatSpec<'cline'> = {
  id: 'cline',
  label: 'Cline task history JSON',
  expectation:
    "Cline's api_conversation_history.json: an array of Anthropic messages whose user turns hold <task> and \"[tool for '…'] Result:\" texts",
  fileExtensions: ['.json'],
  layout: 'document',
  detect: { document: detectCline },
  parse: clineDocumentToDraft,
};

function detectCline(value: unknown): FormatEvidence | null {
  if (!Array.isArray(value)) return null;
  const first = firstObject(value);
  if (!first || typeof first.role !== 'string') return null;
  const inspected = Math.min(value.length, MESSAGES_INSPECTED);
  for (let index = 0; index < inspected; index += 1) {
    const message: unknown = value[index];
    if (!isPlainObject(message) || message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') continue;
      const text = block.text.trimStart();
      if (text.startsWith('<task>')) return { confidence: 0.95, reason: 'user turns hold a Cline <task>' };
      if (clineResultToolName(text)) {
        return { confidence: 0.95, reason: 'user turns hold Cline "[tool for …] Result:" texts' };
      }
      if (text.startsWith('<environment_details>')) {
        return { confidence: 0.9, reason: 'user turns hold Cline <environment_details>' };
      }
    }
  }
  return null;
}
