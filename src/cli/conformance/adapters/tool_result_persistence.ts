import {
  budgetForContextWindow,
  DEFAULT_BUDGET,
  PINNED_THRESHOLDS,
  type BudgetConfig,
} from '../../../core/persistence/budget-config.ts';
import {
  buildPersistedMessage,
  PERSISTED_OUTPUT_TAG,
} from '../../../core/persistence/build-persisted-message.ts';
import { enforceTurnBudget } from '../../../core/persistence/enforce-turn-budget.ts';
import { generatePreview } from '../../../core/persistence/generate-preview.ts';
import { maybePersistToolResult } from '../../../core/persistence/maybe-persist-tool-result.ts';
import { sandboxWriteCommand } from '../../../core/persistence/sandbox-write-command.ts';
import {
  HERMES_RESULTS_DIRECTORY,
  persistedFilePath,
  type ToolResultStorage,
} from '../../../core/persistence/tool-result-storage.ts';
import type { Preset } from '../../../core/presets/preset.ts';
import type { Message } from '../../../core/transcript/message.ts';
import { requireKnownFields, UnknownVectorFieldError, unknownStep } from '../require-known-fields.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

/** The vectors record sandbox commands cut to this many characters. */
const COMMAND_PREVIEW_CHARS = 300;
/** Turn-budget vectors include a message's content only below this length. */
const CONTENT_SHOWN_BELOW_CHARS = 6000;

type Input = Record<string, unknown>;

interface RecordingStorage extends ToolResultStorage {
  commands: string[];
}

/** env "ok": a sandbox whose writes succeed; env null: no sandbox. */
function storageFor(env: unknown, preset: Preset): RecordingStorage | null {
  if (env !== 'ok') return null;
  const commands: string[] = [];
  const storage: RecordingStorage = {
    location: HERMES_RESULTS_DIRECTORY,
    commands,
    write(fileName, content) {
      const command = sandboxWriteCommand(persistedFilePath(storage, fileName), content, preset);
      commands.push(Array.from(command).slice(0, COMMAND_PREVIEW_CHARS).join(''));
      return true;
    },
  };
  return storage;
}

/**
 * An explicit threshold: a number, `"inf"` (how the vectors write Python's `float("inf")`, as
 * in `pinned`), or null/absent to resolve it from the tool name.
 */
function thresholdFrom(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'inf') return Infinity;
  if (typeof value === 'number') return value;
  throw new UnknownVectorFieldError(
    `input.threshold: expected a number, "inf" or null, got ${JSON.stringify(value)}`,
  );
}

function configFrom(value: unknown): BudgetConfig {
  if (typeof value !== 'object' || value === null) return { ...DEFAULT_BUDGET };
  requireKnownFields(value, ['default_result_size', 'turn_budget', 'preview_size'], 'input.config');
  const config = value as Record<string, number | undefined>;
  return {
    defaultResultSize: config.default_result_size ?? DEFAULT_BUDGET.defaultResultSize,
    turnBudget: config.turn_budget ?? DEFAULT_BUDGET.turnBudget,
    previewSize: config.preview_size ?? DEFAULT_BUDGET.previewSize,
  };
}

const snakeBudget = (config: BudgetConfig) => ({
  default_result_size: config.defaultResultSize,
  turn_budget: config.turnBudget,
  preview_size: config.previewSize,
});

/** The input each kind of case reads. */
const KIND_INPUTS: Readonly<Record<string, readonly string[]>> = {
  generate_preview: ['content', 'max_chars'],
  maybe_persist: ['content', 'tool_name', 'tool_use_id', 'env', 'config', 'threshold'],
  build_persisted_message: ['preview', 'has_more', 'original_size', 'file_path'],
  turn_budget: ['tool_messages', 'env', 'config'],
  budget_for_context_window: ['context_length'],
  constants: [],
};

export const adapter: VectorAdapter = {
  caseKeys: ['kind'],
  inputKeys: (testCase) =>
    KIND_INPUTS[String(testCase.kind)] ?? unknownStep('kind', testCase.kind, Object.keys(KIND_INPUTS)),
  run(testCase, preset) {
    const input = testCase.input as Input;
    switch (testCase.kind) {
      case 'generate_preview': {
        const preview = generatePreview(String(input.content), Number(input.max_chars));
        return { preview: preview.preview, has_more: preview.hasMore };
      }
      case 'maybe_persist': {
        const content = String(input.content);
        const storage = storageFor(input.env, preset);
        const threshold = thresholdFrom(input.threshold);
        const result = maybePersistToolResult(
          content,
          String(input.tool_name),
          String(input.tool_use_id),
          storage,
          configFrom(input.config),
          threshold,
          preset,
        );
        return { result, unchanged: result === content, sandbox_commands: storage?.commands ?? [] };
      }
      case 'build_persisted_message':
        return buildPersistedMessage(
          String(input.preview),
          Boolean(input.has_more),
          Number(input.original_size),
          String(input.file_path),
        );
      case 'turn_budget': {
        const messages = enforceTurnBudget(
          input.tool_messages as Message[],
          storageFor(input.env, preset),
          configFrom(input.config),
          preset,
        );
        return messages.map((message) => {
          const content = typeof message.content === 'string' ? message.content : '';
          const length = Array.from(content).length;
          return {
            tool_call_id: message.tool_call_id,
            persisted: content.includes(PERSISTED_OUTPUT_TAG),
            content_len: length,
            ...(length < CONTENT_SHOWN_BELOW_CHARS ? { content } : {}),
          };
        });
      }
      case 'budget_for_context_window':
        return snakeBudget(budgetForContextWindow(input.context_length as number | null, preset));
      case 'constants':
        return {
          ...snakeBudget(DEFAULT_BUDGET),
          pinned: Object.fromEntries(
            Object.entries(PINNED_THRESHOLDS).map(([tool, limit]) => [
              tool,
              limit === Infinity ? 'inf' : limit,
            ]),
          ),
        };
      default:
        return unknownStep('kind', testCase.kind, Object.keys(KIND_INPUTS));
    }
  },
};
