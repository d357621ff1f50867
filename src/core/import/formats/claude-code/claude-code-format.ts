import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import type { FormatEvidence, JsonlFormatSpec } from '../transcript-format-spec.ts';
import { CLAUDE_CODE_BOOKKEEPING_TYPES } from './claude-code-bookkeeping-types.ts';
import { createClaudeCodeRecordParser } from './parse-claude-code-transcript.ts';

export const claudeCodeFormat: JsonlFormatSpec<'claude-code'> = {
  id: 'claude-code',
  label: 'Claude Code JSONL',
  expectation: 'one JSON object per line with "type":"user" or "assistant" records',
  fileExtensions: ['.jsonl'],
  layout: 'jsonl',
  detect: { record: detectClaudeCodeRecord },
  parse: createClaudeCodeRecordParser,
};

function detectClaudeCodeRecord(record: Record<string, unknown>): FormatEvidence | null {
  const type = record.type;
  if ((type === 'user' || type === 'assistant') && isPlainObject(record.message)) {
    const threaded = 'uuid' in record || 'parentUuid' in record || 'sessionId' in record;
    return {
      confidence: threaded ? 0.95 : 0.8,
      reason: `lines are "${type}" records with a nested message`,
    };
  }
  if (type === 'summary' && 'leafUuid' in record) {
    return { confidence: 0.9, reason: 'lines include Claude Code "summary" title records' };
  }
  if (type === 'system' && ('uuid' in record || 'subtype' in record)) {
    return { confidence: 0.9, reason: 'lines include Claude Code "system" records' };
  }
  if (typeof type === 'string' && CLAUDE_CODE_BOOKKEEPING_TYPES.has(type)) {
    return { confidence: 0.9, reason: `lines include Claude Code "${type}" records` };
  }
  return null;
}
