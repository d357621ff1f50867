import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { firstObject } from '../../has-anthropic-blocks.ts';
import type { FormatEvidence, JsonlFormatSpec } from '../transcript-format-spec.ts';
import { createShareGptRecordParser } from './parse-sharegpt-transcript.ts';

export const shareGptFormat: JsonlFormatSpec<'sharegpt'> = {
  id: 'sharegpt',
  label: 'ShareGPT JSONL',
  expectation: 'one {"conversations":[{"from","value"}]} object per line',
  fileExtensions: ['.jsonl', '.json'],
  layout: 'jsonl',
  detect: {
    record: (record) =>
      Array.isArray(record.conversations)
        ? { confidence: 0.95, reason: 'lines hold a "conversations" array of {from, value} turns' }
        : null,
    document: detectShareGptDocument,
  },
  parse: createShareGptRecordParser,
};

function detectShareGptDocument(value: unknown): FormatEvidence | null {
  if (isPlainObject(value)) {
    return Array.isArray(value.conversations)
      ? { confidence: 0.95, reason: 'a "conversations" array of {from, value} turns' }
      : null;
  }
  if (!Array.isArray(value)) return null;
  const first = firstObject(value);
  if (!first) return null;
  if (Array.isArray(first.conversations)) {
    return { confidence: 0.9, reason: 'an array of {"conversations": …} records' };
  }
  if (typeof first.from === 'string' && 'value' in first) {
    return { confidence: 0.9, reason: 'an array of {from, value} turns' };
  }
  return null;
}
