import { err, ok, type Result } from '../../../shared/result.ts';
import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { createResponsesItemReader } from '../../create-responses-item-reader.ts';
import type { ImportContext } from '../../import-context.ts';
import { childPath } from '../../import-warning.ts';
import { keepToolSchemas } from '../../keep-tool-schemas.ts';
import type { DocumentProblem } from '../../json-document-converter.ts';
import { createTranscriptDraft, pushDraftMessage, type TranscriptDraft } from '../../transcript-draft.ts';

/**
 * Reads OpenAI Responses JSON: a request (`input`: a text or a list of items, `instructions`
 * as the system prompt, `tools`), a response or `response.compaction` object (`output`
 * items), both lists in one object (a captured request with its response), or a bare list of
 * items. Items are read as Codex reads them; a `compaction` item (opaque, encrypted) becomes
 * a compaction point, and reasoning items with only encrypted content are counted in a note.
 *
 * @see https://platform.openai.com/docs/api-reference/responses
 */
export function openAiResponsesDocumentToDraft(
  value: unknown,
  context: ImportContext,
): Result<TranscriptDraft, DocumentProblem> {
  const draft = createTranscriptDraft('openai-responses');
  const items = createResponsesItemReader(draft, context, {
    compactionKind: 'openai-compaction',
    noteEncryptedReasoning: true,
  });
  const lists: { items: unknown[]; path: string }[] = [];
  if (Array.isArray(value)) lists.push({ items: value, path: '$' });
  else if (isPlainObject(value)) {
    readRequestFields(value, draft, context);
    if (typeof value.input === 'string')
      pushDraftMessage(draft, { role: 'user', content: value.input }, { path: '$.input' });
    else if (Array.isArray(value.input)) lists.push({ items: value.input, path: '$.input' });
    if (Array.isArray(value.output)) lists.push({ items: value.output, path: '$.output' });
    if (lists.length === 0 && typeof value.input !== 'string') {
      return err({ path: '$.input', problem: 'is missing, and so is "output"' });
    }
  } else return err({ path: '$', problem: 'is neither an object nor an array' });

  for (const list of lists) {
    list.items.forEach((item: unknown, index) => {
      const at = { path: childPath(list.path, index) };
      if (!isPlainObject(item)) context.skipLine(at, 'is not an item object');
      else if (item.type === 'item_reference') {
        context.note(
          at,
          `refers to item ${JSON.stringify(item.id)} stored by the provider; it is not in the file`,
        );
      } else items.readItem(item, at);
    });
    items.closeRun({});
  }
  items.finish();
  return ok(draft);
}

function readRequestFields(
  value: Record<string, unknown>,
  draft: TranscriptDraft,
  context: ImportContext,
): void {
  const { metadata } = draft;
  if (typeof value.model === 'string') metadata.model = value.model;
  if (typeof value.instructions === 'string' && value.instructions)
    metadata.systemPrompt = value.instructions;
  if (Array.isArray(value.tools)) metadata.tools = keepToolSchemas(value.tools, { path: '$.tools' }, context);
  if (typeof value.previous_response_id === 'string') {
    context.note(
      { path: '$.previous_response_id' },
      `continues response ${JSON.stringify(value.previous_response_id)}; the turns before it are stored by the provider, not in the file`,
    );
  }
}
