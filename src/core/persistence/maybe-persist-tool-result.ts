import type { Preset } from '../presets/preset.ts';
import { formatCount } from '../shared/format-count.ts';
import { resolveThreshold, type BudgetConfig } from './budget-config.ts';
import { buildPersistedMessage } from './build-persisted-message.ts';
import { generatePreview } from './generate-preview.ts';
import { sanitizePersistedFileName } from './sanitize-persisted-file-name.ts';
import { persistedFilePath, type ToolResultStorage } from './tool-result-storage.ts';

export type PersistOutcomeKind = 'unchanged' | 'persisted' | 'truncated';

export interface PersistOutcome {
  kind: PersistOutcomeKind;
  /** What goes into the conversation instead of the raw result. */
  text: string;
  /** The file written (persisted) or attempted (truncated); null when unchanged. */
  fileName: string | null;
}

/**
 * Layer 2 of tool-result budgeting (`maybe_persist_tool_result`, hermes-reference §10): a result
 * over its threshold is written to storage and replaced by a `<persisted-output>` preview; with
 * no storage, or a failed write, it is truncated inline to the preview.
 *
 * `threshold` overrides the tool's resolved threshold (the turn budget passes 0).
 */
export function maybePersistToolResultDetailed(
  content: string,
  toolName: string,
  toolUseId: unknown,
  storage: ToolResultStorage | null,
  config: BudgetConfig,
  threshold: number | undefined,
  preset: Preset,
): PersistOutcome {
  const limit = threshold ?? resolveThreshold(toolName, config, preset);
  const length = Array.from(content).length;
  if (limit === Infinity || length <= limit) return { kind: 'unchanged', text: content, fileName: null };
  const fileName = sanitizePersistedFileName(toolUseId, preset);
  const { preview, hasMore } = generatePreview(content, config.previewSize);
  if (storage !== null && storage.write(fileName, content)) {
    return {
      kind: 'persisted',
      text: buildPersistedMessage(preview, hasMore, length, persistedFilePath(storage, fileName)),
      fileName,
    };
  }
  return {
    kind: 'truncated',
    text: `${preview}\n\n[Truncated: tool response was ${formatCount(length)} chars. Full output could not be saved to sandbox.]`,
    fileName,
  };
}

/** The replacement text only, like Hermes' return value. */
export function maybePersistToolResult(
  content: string,
  toolName: string,
  toolUseId: unknown,
  storage: ToolResultStorage | null,
  config: BudgetConfig,
  threshold: number | undefined,
  preset: Preset,
): string {
  return maybePersistToolResultDetailed(content, toolName, toolUseId, storage, config, threshold, preset)
    .text;
}
