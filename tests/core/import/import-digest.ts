import type { ImportError } from '#core/import/import-error.ts';
import type { ImportResult } from '#core/import/import-result.ts';
import { formatImportWarning } from '#core/import/import-warning.ts';
import type { Result } from '#core/shared/result.ts';

const SUMMARY_PREVIEW_CHARS = 120;

/**
 * What a fixture's expected.json records about an import: the full messages, plus the facts a
 * reader checks first (roles, which call each result answers, compaction points, warnings).
 */
export function digestImport(result: Result<ImportResult, ImportError>): unknown {
  if (!result.ok) return { ok: false, error: result.error };
  const { transcript, warnings, stats, format } = result.value;
  const { compactionPoints, systemPrompt, tools, ...metadata } = transcript.metadata;
  const toolCalls: { id: string; name: string; callIndex: number; resultIndex: number | null }[] = [];
  transcript.messages.forEach((message, index) => {
    for (const call of message.tool_calls ?? []) {
      toolCalls.push({ id: call.id, name: call.function.name, callIndex: index, resultIndex: null });
    }
    if (message.role === 'tool') {
      const call = toolCalls.find((entry) => entry.id === message.tool_call_id);
      if (call) call.resultIndex = index;
    }
  });
  return {
    ok: true,
    format,
    stats,
    roles: transcript.messages.map((message) => message.role),
    toolCalls,
    compactionPoints: compactionPoints.map((point) => ({
      ...point,
      ...(point.summary !== undefined ? { summary: preview(point.summary) } : {}),
    })),
    metadata: {
      ...metadata,
      ...(systemPrompt !== undefined ? { systemPrompt: preview(systemPrompt) } : {}),
      ...(tools !== undefined ? { tools: tools.length } : {}),
    },
    warnings: warnings.map((warning) => `${warning.kind}: ${formatImportWarning(warning)}`),
    messages: transcript.messages,
  };
}

function preview(text: string): string {
  return text.length > SUMMARY_PREVIEW_CHARS ? `${text.slice(0, SUMMARY_PREVIEW_CHARS)}…` : text;
}
