/**
 * The tools the model can call, run in the browser: `read_persisted_output` reads back a large
 * output that was stored instead of kept in context, `search_sessions` searches every stored
 * message. Results then go through Hermes' result budgets (hermes-reference §10): each result
 * over its threshold is stored and replaced by a `<persisted-output>` preview, and a turn whose
 * results together exceed the turn budget has its largest ones stored the same way.
 */
import { budgetForContextWindow, type BudgetConfig } from '../../core/persistence/budget-config.ts';
import { PERSISTED_OUTPUT_TAG } from '../../core/persistence/build-persisted-message.ts';
import { enforceTurnBudget } from '../../core/persistence/enforce-turn-budget.ts';
import { maybePersistToolResult } from '../../core/persistence/maybe-persist-tool-result.ts';
import type { Preset } from '../../core/presets/preset.ts';
import { formatCount } from '../../core/shared/format-count.ts';
import {
  describeBrowserToolCallError,
  parseBrowserToolCall,
  type BrowserToolCall,
} from '../../core/tools/parse-browser-tool-call.ts';
import { READ_PERSISTED_OUTPUT_TOOL_NAME } from '../../core/tools/browser-tool-schemas.ts';
import type { Message, ToolCall } from '../../core/transcript/message.ts';
import type { ConversationStore, ToolResultStore } from './conversation-store.ts';

export interface BrowserToolsDependencies {
  readonly toolResults: ToolResultStore;
  readonly search: ConversationStore['search'];
}

export interface ToolRoundOptions {
  readonly preset: Preset;
  readonly contextLength: number;
  /** Overrides the preset's budgets (tests, settings). */
  readonly budget?: BudgetConfig;
  readonly signal?: AbortSignal;
}

export interface ToolRoundResult {
  /** One `role: tool` message per call, in call order, after the budgets. */
  readonly messages: Message[];
  /** Tool call ids whose result is now a `<persisted-output>` preview. */
  readonly persistedIds: ReadonlySet<string>;
}

/**
 * The budget for this window, with our reader pinned like Hermes pins `read_file`: persisting
 * what it returns would loop persist → read → persist.
 */
export function toolBudgetFor(contextLength: number, preset: Preset, base?: BudgetConfig): BudgetConfig {
  const budget = base ?? budgetForContextWindow(contextLength, preset);
  return {
    ...budget,
    toolOverrides: { ...budget.toolOverrides, [READ_PERSISTED_OUTPUT_TOOL_NAME]: Infinity },
  };
}

export async function runBrowserTools(
  calls: readonly ToolCall[],
  dependencies: BrowserToolsDependencies,
  options: ToolRoundOptions,
): Promise<ToolRoundResult> {
  const budget = toolBudgetFor(options.contextLength, options.preset, options.budget);
  const storage = dependencies.toolResults.storage;
  const outputs: string[] = [];
  const raw: Message[] = [];
  for (const call of calls) {
    const output = options.signal?.aborted
      ? 'Cancelled by the user before this tool ran.'
      : await runOne(call, dependencies);
    outputs.push(output);
    const name = call.function.name;
    raw.push({
      role: 'tool',
      tool_call_id: call.id,
      name,
      content: maybePersistToolResult(output, name, call.id, storage, budget, undefined, options.preset),
    });
  }
  const messages = enforceTurnBudget(raw, storage, budget, options.preset);
  const persistedIds = new Set<string>();
  messages.forEach((message, index) => {
    const content = message.content;
    if (typeof content === 'string' && content !== outputs[index] && content.includes(PERSISTED_OUTPUT_TAG))
      persistedIds.add(calls[index]!.id);
  });
  return { messages, persistedIds };
}

async function runOne(call: ToolCall, dependencies: BrowserToolsDependencies): Promise<string> {
  const parsed = parseBrowserToolCall(call);
  if (!parsed.ok) return describeBrowserToolCallError(parsed.error);
  try {
    return await execute(parsed.value, dependencies);
  } catch (error) {
    return `Error: ${call.function.name} failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function execute(call: BrowserToolCall, dependencies: BrowserToolsDependencies): Promise<string> {
  switch (call.tool) {
    case 'read_persisted_output': {
      const slice = await dependencies.toolResults.read(call.fileName, call.offset, call.limit);
      if (slice === null) return `Error: no stored output named "${call.fileName}".`;
      const end = call.offset + slice.text.length;
      const more =
        end < slice.totalChars
          ? `\n\n[Characters ${formatCount(call.offset)}–${formatCount(end)} of ${formatCount(slice.totalChars)}; call again with offset ${end} for more.]`
          : `\n\n[End of output: ${formatCount(slice.totalChars)} characters.]`;
      return slice.text + more;
    }
    case 'search_sessions': {
      const hits = await dependencies.search(call.query, call.limit);
      if (hits.length === 0) return `No stored messages match "${call.query}".`;
      const lines = hits.map(
        (hit, index) =>
          `${index + 1}. [${hit.sessionTitle ?? hit.sessionId}] ${hit.role}: ${hit.snippet.replace(/\s+/g, ' ').trim()}`,
      );
      return `${hits.length} match${hits.length === 1 ? '' : 'es'} for "${call.query}":\n${lines.join('\n')}`;
    }
  }
}
