import { messageText } from '../transcript/message.ts';
import type { TranscriptFormat } from '../transcript/transcript.ts';
import { err, ok, type Result } from '../shared/result.ts';
import type { ImportContext } from './import-context.ts';
import { createImportError, type ImportError } from './import-error.ts';
import type { ImportResult } from './import-result.ts';
import { pairToolResults } from './pair-tool-results.ts';
import { prependDraftMessage, type TranscriptDraft } from './transcript-draft.ts';
import { transcriptFormatSpec } from './formats/transcript-format-registry.ts';
import { transcriptFormatExpectation } from './transcript-format-label.ts';

/**
 * The steps every parser ends with: the system prompt becomes `messages[0]`, tool results are
 * paired with their calls, and an empty result becomes an ImportError that points at the first
 * thing that went wrong.
 */
export function finishImport(
  draft: TranscriptDraft,
  context: ImportContext,
  format: TranscriptFormat,
  bytes: number,
): Result<ImportResult, ImportError> {
  // Our own format is read back exactly as written: problems are reported, not repaired.
  const lossless = transcriptFormatSpec(format).lossless === true;
  if (!lossless) placeSystemPrompt(draft);
  pairToolResults(draft, context, lossless ? 'check' : 'repair');

  if (draft.messages.length === 0) {
    const firstProblem =
      context.warnings.find((warning) => warning.kind === 'skipped-line') ?? context.warnings[0];
    return err(
      createImportError(format, {
        ...(firstProblem?.line !== undefined ? { line: firstProblem.line } : {}),
        ...(firstProblem?.path !== undefined ? { path: firstProblem.path } : {}),
        problem: firstProblem
          ? `${firstProblem.reason}, and no messages could be read`
          : 'the file holds no messages',
        expected: transcriptFormatExpectation(format),
      }),
    );
  }

  return ok({
    format,
    transcript: { messages: draft.messages, metadata: draft.metadata },
    warnings: context.warnings,
    stats: {
      messages: draft.messages.length,
      skippedLines: context.skippedLines,
      skippedParts: context.skippedParts,
      bytes,
      suppressedWarnings: context.suppressedWarnings,
    },
  });
}

function placeSystemPrompt(draft: TranscriptDraft): void {
  const { metadata, messages } = draft;
  const first = messages[0];
  if (metadata.systemPrompt !== undefined && metadata.systemPrompt.length > 0) {
    if (first?.role === 'system' && messageText(first) === metadata.systemPrompt) return;
    prependDraftMessage(draft, { role: 'system', content: metadata.systemPrompt }, {});
    return;
  }
  if (first?.role === 'system') {
    const text = messageText(first);
    if (text) metadata.systemPrompt = text;
  }
}
