import type { TranscriptFormat } from '../transcript/transcript.ts';
import type { Result } from '../shared/result.ts';
import { finishImport } from './finish-import.ts';
import { guardImport } from './guard-import.ts';
import { createImportContext } from './import-context.ts';
import type { ImportError } from './import-error.ts';
import type { ImportResult } from './import-result.ts';
import type { JsonlRecordParserFactory } from './jsonl-record-parser.ts';
import { readJsonlLine } from './read-jsonl-line.ts';
import { createLineSplitter } from './split-lines.ts';
import { utf8ByteLength } from './utf8-byte-length.ts';

/** Reads JSONL text with one known format's record parser. */
export function importJsonlText(
  text: string,
  format: TranscriptFormat,
  createParser: JsonlRecordParserFactory,
): Result<ImportResult, ImportError> {
  return guardImport(format, () => {
    const context = createImportContext();
    const parser = createParser(context);
    const splitter = createLineSplitter((line, lineNumber) => {
      const read = readJsonlLine(line, lineNumber, context);
      if (read) parser.acceptRecord(read.record, read.at);
    });
    splitter.push(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    splitter.end();
    return finishImport(parser.finish(), context, format, utf8ByteLength(text));
  });
}
