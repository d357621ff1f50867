import type { TranscriptFormat } from '../transcript/transcript.ts';
import { err, type Result } from '../shared/result.ts';
import { safeParseJson } from '../shared/safe-parse-json.ts';
import { classifyJsonDocument } from './classify-json-document.ts';
import { classifyJsonlRecord } from './classify-jsonl-record.ts';
import { classifyText } from './classify-text.ts';
import { DETECTION_LINE_LIMIT, pickJsonlDetection } from './detect-transcript-format.ts';
import { detectUndecodedUtf16 } from './detect-undecoded-utf16.ts';
import { finishImport } from './finish-import.ts';
import { CONFIDENT_DETECTION } from './format-detection.ts';
import { transcriptFormatSpec } from './formats/transcript-format-registry.ts';
import { guardImport } from './guard-import.ts';
import { createImportContext } from './import-context.ts';
import { createImportError, type ImportError } from './import-error.ts';
import { importParsedDocument, importParsedText } from './import-parsed-document.ts';
import type { ImportOptions, ImportResult } from './import-result.ts';
import { jsonSyntaxImportError } from './json-syntax-import-error.ts';
import type { JsonlRecordParser } from './jsonl-record-parser.ts';
import { lookalikeImportError, lookalikeWins } from './lookalike-import-error.ts';
import { feedJsonlLine, lineRecords, parseJsonlLine, type JsonlLine } from './read-jsonl-line.ts';
import { createLineSplitter } from './split-lines.ts';
import { transcriptFormatExpectation } from './transcript-format-label.ts';
import { documentLookalike, recordsLookalike } from './unsupported-lookalikes.ts';
import { utf8ByteLength } from './utf8-byte-length.ts';

export interface ImportProgress {
  bytes: number;
  lines: number;
  messages: number;
}

/** A streaming import: feed chunks of any size, then finish. */
export interface JsonlImporter {
  push(chunk: string): void;
  finish(): Result<ImportResult, ImportError>;
  readonly progress: ImportProgress;
}

type Layout = 'detecting' | 'jsonl' | 'document' | 'failed';

/**
 * Imports a transcript from streamed text. JSONL is parsed line by line as it arrives, holding
 * only the unfinished line and the messages built so far; the format is recognised from the
 * first lines (or taken from `options.format`). A whole JSON document (pretty-printed, or one
 * line) or a text format (Markdown) is recognised too: its text is kept and read at `finish`,
 * since such a file can only be read whole. A file that resembles a tool Context Lab cannot
 * read yet is refused with that tool's name.
 *
 * @example
 * const importer = createJsonlImporter();
 * for (const chunk of chunks) importer.push(chunk);
 * const result = importer.finish();
 */
export function createJsonlImporter(options: ImportOptions = {}): JsonlImporter {
  const context = createImportContext();
  const progress: ImportProgress = { bytes: 0, lines: 0, messages: 0 };
  const forced = options.format;
  const forcedLayout = forced ? transcriptFormatSpec(forced).layout : undefined;
  let layout: Layout = forcedLayout === 'document' || forcedLayout === 'text' ? 'document' : 'detecting';
  let format: TranscriptFormat | undefined = forced;
  let parser: JsonlRecordParser | undefined;
  // The text as received, until it is known to be JSONL (a document must be parsed whole).
  let rawChunks: string[] | undefined = [];
  let pending: JsonlLine[] = [];
  let meaningfulLines = 0;
  let firstLineIsObject = false;
  let recognisableLines = 0;
  let failure: ImportError | undefined;
  let isFirstChunk = true;
  // A chunk may end between the two halves of a surrogate pair; count the pair once it is whole.
  let carriedHighSurrogate = '';

  const countBytes = (chunk: string): void => {
    let text = carriedHighSurrogate + chunk;
    carriedHighSurrogate = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      carriedHighSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    progress.bytes += utf8ByteLength(text);
  };

  const startJsonl = (chosen: TranscriptFormat): void => {
    const spec = transcriptFormatSpec(chosen);
    if (spec.layout !== 'jsonl') {
      // A document or text format forced on line-structured text: read it whole at finish.
      layout = 'document';
      return;
    }
    layout = 'jsonl';
    format = chosen;
    parser = spec.parse(context);
    rawChunks = undefined;
    for (const line of pending) feed(line);
    pending = [];
  };

  const feed = (line: JsonlLine): void => {
    if (parser) {
      const target = parser;
      feedJsonlLine(line, context, (record, at) => target.acceptRecord(record, at));
    }
  };

  const pendingRecords = () => pending.flatMap(lineRecords);
  const pendingDetection = () => pickJsonlDetection(pendingRecords());

  /** The detected JSONL format, unless the lines look more like a tool we cannot read. */
  const chooseDetected = (): TranscriptFormat | undefined => {
    const detected = pendingDetection();
    const lookalike = recordsLookalike(pendingRecords());
    if (lookalikeWins(lookalike, detected?.confidence)) {
      failWith(lookalikeImportError(lookalike));
      return undefined;
    }
    return detected?.format;
  };

  const detectOnLine = (line: JsonlLine): void => {
    if (line.kind === 'blank') return;
    meaningfulLines += 1;
    pending.push(line);
    const records = lineRecords(line);
    if (meaningfulLines === 1) firstLineIsObject = records.length > 0;
    const recognisable = records.some((record) => {
      const classified = classifyJsonlRecord(record);
      return forced !== undefined || (classified !== null && classified.confidence >= CONFIDENT_DETECTION);
    });
    if (recognisable) recognisableLines += 1;
    if (firstLineIsObject) {
      if (meaningfulLines < 2) return;
      if (forced) return startJsonl(forced);
      const detected = pendingDetection();
      if (detected && detected.confidence >= CONFIDENT_DETECTION) {
        const chosen = chooseDetected();
        if (chosen) startJsonl(chosen);
        return;
      }
      if (meaningfulLines >= DETECTION_LINE_LIMIT) {
        const chosen = chooseDetected();
        if (chosen) startJsonl(chosen);
        else if (!currentFailure()) failWith(unrecognisedError());
      }
      return;
    }
    // The first line is not an object: a pretty-printed document, a text format, or JSONL
    // with a broken head. Two unmistakable records say JSONL; otherwise the text is read whole.
    const lineFormat = recognisableLines >= 2 ? (forced ?? pendingDetection()?.format) : undefined;
    if (lineFormat) return startJsonl(lineFormat);
    if (meaningfulLines >= DETECTION_LINE_LIMIT) {
      layout = 'document';
      pending = [];
    }
  };

  const splitter = createLineSplitter((text, lineNumber) => {
    progress.lines = lineNumber;
    if (layout === 'jsonl') feed(parseJsonlLine(text, lineNumber));
    else if (layout === 'detecting') detectOnLine(parseJsonlLine(text, lineNumber));
    progress.messages = parser?.messageCount ?? 0;
  });

  // Read through a function: the line callbacks can set it, which narrowing cannot see.
  const currentFailure = (): ImportError | undefined => failure;

  const failWith = (error: ImportError): void => {
    failure = error;
    layout = 'failed';
    rawChunks = undefined;
    pending = [];
  };

  const unrecognisedError = (): ImportError =>
    createImportError('unknown', {
      problem: `the first ${meaningfulLines} lines match no known transcript format`,
      expected: transcriptFormatExpectation('unknown'),
    });

  const finishDocument = (): Result<ImportResult, ImportError> => {
    const text = (rawChunks ?? []).join('');
    rawChunks = undefined;
    if (forcedLayout === 'text' && forced) return importParsedText(text, forced, context, progress.bytes);
    // A one-line document was already parsed while detecting; do not parse it twice.
    const onlyLine = meaningfulLines === 1 ? pending[0] : undefined;
    const parsed =
      onlyLine?.kind === 'record' ? { ok: true as const, value: onlyLine.record } : safeParseJson(text);
    if (!parsed.ok) return finishUnparsedText(text, parsed.error.message);
    const detected = forced ? undefined : classifyJsonDocument(parsed.value);
    if (!forced) {
      const lookalike = documentLookalike(parsed.value);
      if (lookalikeWins(lookalike, detected?.confidence)) return err(lookalikeImportError(lookalike));
    }
    const chosen = format ?? detected?.format;
    if (!chosen) {
      return err(
        createImportError('unknown', {
          problem: 'the document matches no known transcript format',
          expected: transcriptFormatExpectation('unknown'),
        }),
      );
    }
    const wholeAt = meaningfulLines === 1 ? { line: firstLineNumber(text) } : { path: '$' };
    return importParsedDocument(parsed.value, chosen, context, progress.bytes, wholeAt);
  };

  /** Not one JSON document: JSONL after all, a text format, or a file we cannot read. */
  const finishUnparsedText = (text: string, parserMessage: string): Result<ImportResult, ImportError> => {
    const lineFormat =
      forced && forcedLayout === 'jsonl'
        ? forced
        : recognisableLines >= 1
          ? pendingDetection()?.format
          : undefined;
    if (lineFormat) return importTextAsJsonl(text, lineFormat);
    if (!forced) {
      const textFormat = classifyText(text);
      if (textFormat) return importParsedText(text, textFormat.format, context, progress.bytes);
    }
    return err(jsonSyntaxImportError(format ?? 'unknown', text, parserMessage));
  };

  /** Reads kept text line by line (the lines seen while undecided were not fed to any parser). */
  const importTextAsJsonl = (text: string, chosen: TranscriptFormat): Result<ImportResult, ImportError> => {
    pending = [];
    startJsonl(chosen);
    const replay = createLineSplitter((line, lineNumber) => feed(parseJsonlLine(line, lineNumber)));
    replay.push(text);
    replay.end();
    return finishJsonl();
  };

  const finishJsonl = (): Result<ImportResult, ImportError> => {
    if (!parser || !format) throw new Error('finishJsonl called before a JSONL parser was chosen');
    return finishImport(parser.finish(), context, format, progress.bytes);
  };

  /** The first chunk of a UTF-16 file that was decoded as UTF-8 says so; nothing else will read. */
  const checkEncoding = (text: string): void => {
    const utf16 = detectUndecodedUtf16(text);
    if (!utf16) return;
    failWith(
      createImportError(format ?? 'unknown', {
        problem: `the file is ${utf16} text but was decoded as UTF-8`,
        expected:
          'a UTF-8 file, or a UTF-16 file read with its own encoding (save it as UTF-8 and import again)',
      }),
    );
  };

  return {
    progress,
    push(chunk) {
      if (layout === 'failed') return;
      const guarded = guardImport(format ?? 'unknown', () => {
        const text = isFirstChunk && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
        if (isFirstChunk && chunk.length > 0) {
          isFirstChunk = false;
          checkEncoding(text);
          if (currentFailure()) return { ok: true, value: undefined };
        }
        countBytes(chunk);
        rawChunks?.push(text);
        splitter.push(text);
        return { ok: true, value: undefined };
      });
      if (!guarded.ok) failWith(guarded.error);
    },
    finish() {
      if (failure) return err(failure);
      return guardImport(format ?? 'unknown', () => {
        if (carriedHighSurrogate) progress.bytes += utf8ByteLength(carriedHighSurrogate);
        carriedHighSurrogate = '';
        splitter.end();
        const failedAtEnd = currentFailure();
        if (failedAtEnd) return err(failedAtEnd);
        if (layout === 'jsonl') return finishJsonl();
        if (layout === 'detecting' && firstLineIsObject && meaningfulLines >= 2) {
          const detected = forced ?? chooseDetected();
          const failedOnLookalike = currentFailure();
          if (failedOnLookalike) return err(failedOnLookalike);
          if (!detected) return err(unrecognisedError());
          startJsonl(detected);
          return parser ? finishJsonl() : finishDocument();
        }
        if (meaningfulLines === 0 && layout === 'detecting') {
          return err(
            createImportError(format ?? 'unknown', {
              problem: 'the file is empty',
              expected: transcriptFormatExpectation(format ?? 'unknown'),
            }),
          );
        }
        return finishDocument();
      });
    },
  };
}

function firstLineNumber(text: string): number {
  let line = 1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10) line += 1;
    else if (code !== 13 && code !== 32 && code !== 9) break;
  }
  return line;
}
