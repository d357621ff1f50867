import { err, ok, type Result } from '../../../shared/result.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { flattenToolResultContent } from '../../convert-anthropic-content.ts';
import type { ImportContext } from '../../import-context.ts';
import { childPath, type SourceLocation } from '../../import-warning.ts';
import type { DocumentProblem } from '../../json-document-converter.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';
import { appendAnthropicMessage } from '../anthropic-messages/parse-anthropic-messages-transcript.ts';
import { clineResultToolName } from './cline-result-header.ts';

interface OpenCall {
  id: string;
  name: string;
  answered: boolean;
}

/**
 * Reads Cline's `api_conversation_history.json` (the Anthropic messages Cline sent, one task).
 * Cline answers a `tool_use` not with a `tool_result` block but with user text: a header block
 * `[read_file for 'src/a.ts'] Result:` followed by the result (a text block, or text and
 * images). Each header and its result become a tool message answering the open call of that
 * name in the assistant turn before (else the first open call); the rest of the user turn
 * (`<environment_details>`, feedback) stays user text. A header with no call to answer (Cline's
 * XML tool mode, where calls are assistant text) stays text too: that is what the model read.
 *
 * @see https://github.com/cline/cline/blob/main/src/core/task/tools/utils/ToolResultUtils.ts
 */
export function clineDocumentToDraft(
  value: unknown,
  context: ImportContext,
): Result<TranscriptDraft, DocumentProblem> {
  if (!Array.isArray(value)) return err({ path: '$', problem: 'is not an array of messages' });
  const draft = createTranscriptDraft('cline');
  let openCalls: OpenCall[] = [];
  let unpairedHeaders = 0;
  value.forEach((raw: unknown, index) => {
    const at: SourceLocation = { path: childPath('$', index) };
    if (!isPlainObject(raw)) {
      context.skipLine(at, 'is not a message object');
      return;
    }
    if (raw.role === 'user' && Array.isArray(raw.content)) {
      const { rest, unpaired } = takeToolResults(raw.content, openCalls, draft, at, context);
      unpairedHeaders += unpaired;
      openCalls = [];
      if (rest.length > 0)
        appendAnthropicMessage(draft, { ...raw, content: rest }, at, context, `toolu_m${index}`);
      return;
    }
    const before = draft.messages.length;
    appendAnthropicMessage(draft, raw, at, context, `toolu_m${index}`);
    if (raw.role === 'assistant') {
      openCalls = draft.messages
        .slice(before)
        .flatMap((message) => message.tool_calls ?? [])
        .map((call) => ({ id: call.id, name: call.function.name, answered: false }));
    }
  });
  if (unpairedHeaders > 0) {
    context.note(
      {},
      `${unpairedHeaders} "[tool] Result:" texts answer no tool_use block (Cline's XML tool mode); kept as user text`,
    );
  }
  return ok(draft);
}

/**
 * Moves every `[tool …] Result:` header and the blocks of its result out of a user turn into
 * tool messages; returns the blocks left for the user message.
 */
function takeToolResults(
  blocks: readonly unknown[],
  openCalls: OpenCall[],
  draft: TranscriptDraft,
  at: SourceLocation,
  context: ImportContext,
): { rest: unknown[]; unpaired: number } {
  const rest: unknown[] = [];
  let unpaired = 0;
  for (let index = 0; index < blocks.length; index += 1) {
    const block = blocks[index];
    const name = isTextBlock(block) ? clineResultToolName(block.text) : undefined;
    const call = name === undefined ? undefined : pickCall(openCalls, name);
    if (name === undefined || !call) {
      if (name !== undefined) unpaired += 1;
      rest.push(block);
      continue;
    }
    call.answered = true;
    const result: unknown[] = [];
    // The result: the next block, and any images that follow it.
    if (index + 1 < blocks.length && !isResultHeader(blocks[index + 1])) result.push(blocks[(index += 1)]);
    while (index + 1 < blocks.length && isImageBlock(blocks[index + 1])) result.push(blocks[(index += 1)]);
    const resultAt = { ...at, path: childPath(childPath(at.path, 'content'), index) };
    const content = flattenToolResultContent(result, resultAt, context);
    pushDraftMessage(draft, { role: 'tool', tool_call_id: call.id, content }, resultAt);
  }
  return { rest, unpaired };
}

function pickCall(openCalls: OpenCall[], name: string): OpenCall | undefined {
  return (
    openCalls.find((call) => !call.answered && call.name === name) ?? openCalls.find((call) => !call.answered)
  );
}

function isTextBlock(block: unknown): block is { type: 'text'; text: string } {
  return isPlainObject(block) && block.type === 'text' && typeof block.text === 'string';
}

const isResultHeader = (block: unknown): boolean =>
  isTextBlock(block) && clineResultToolName(block.text) !== undefined;

const isImageBlock = (block: unknown): boolean => isPlainObject(block) && block.type === 'image';
