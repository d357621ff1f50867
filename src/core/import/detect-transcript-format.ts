import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import { classifyJsonDocument } from './classify-json-document.ts';
import { classifyJsonlRecord } from './classify-jsonl-record.ts';
import { classifyText } from './classify-text.ts';
import { CONFIDENT_DETECTION, type FormatDetection } from './format-detection.ts';
import { lineRecords, parseJsonlLine } from './read-jsonl-line.ts';

/** Lines read to recognise a JSONL file; the formats show themselves in their first records. */
export const DETECTION_LINE_LIMIT = 20;

/** How a text is laid out, with the parsed document when it is one. */
export type TextInspection =
  | { layout: 'document'; value: unknown; detection: FormatDetection | null }
  | { layout: 'jsonl'; detection: FormatDetection | null }
  | { layout: 'text'; detection: FormatDetection }
  | { layout: 'unreadable' };

/**
 * Recognises a transcript's format from its structure, never from a file name.
 *
 * @example
 * detectTranscriptFormat('{"type":"session_meta","payload":{"id":"x"}}\n…')
 * // → { format: 'codex-rollout', confidence: 0.95, reason: 'lines are {type, payload} records ("session_meta")' }
 */
export function detectTranscriptFormat(text: string): FormatDetection | null {
  const inspection = inspectTranscriptText(text);
  return inspection.layout === 'unreadable' ? null : inspection.detection;
}

/**
 * Decides between one JSON document and JSON Lines, reading as little as it can: a JSONL file
 * is recognised from its first lines; only a document is parsed whole.
 */
export function inspectTranscriptText(text: string): TextInspection {
  const firstLine = nextMeaningfulLine(text, 0);
  if (!firstLine) return { layout: 'unreadable' };
  const parsedFirst = safeParseJson(firstLine.text);
  if (parsedFirst.ok && !nextMeaningfulLine(text, firstLine.end)) {
    const value = parsedFirst.value;
    const asDocument = classifyJsonDocument(value);
    return { layout: 'document', value, detection: asDocument };
  }
  if (
    (parsedFirst.ok && isPlainObject(parsedFirst.value)) ||
    (!parsedFirst.ok && lineRecords(parseJsonlLine(firstLine.text, 1)).length > 0)
  ) {
    return { layout: 'jsonl', detection: detectFromLines(text) };
  }
  const whole = safeParseJson(text);
  if (whole.ok)
    return { layout: 'document', value: whole.value, detection: classifyJsonDocument(whole.value) };
  // Neither one document nor clean JSONL: a JSONL file whose first line is broken still counts
  // when a later line is unmistakable.
  const fromLines = detectFromLines(text);
  if (fromLines && fromLines.confidence >= CONFIDENT_DETECTION) {
    return {
      layout: 'jsonl',
      detection: {
        ...fromLines,
        confidence: fromLines.confidence * 0.9,
        reason: `${fromLines.reason}; some lines are not JSON`,
      },
    };
  }
  const asText = classifyText(text);
  return asText ? { layout: 'text', detection: asText } : { layout: 'unreadable' };
}

/** The most confident classification among the first lines that are JSON objects. */
export function pickJsonlDetection(records: readonly Record<string, unknown>[]): FormatDetection | null {
  let best: FormatDetection | null = null;
  for (const record of records) {
    const candidate = classifyJsonlRecord(record);
    if (candidate && (!best || candidate.confidence > best.confidence)) best = candidate;
    if (best && best.confidence >= CONFIDENT_DETECTION) break;
  }
  return best;
}

function detectFromLines(text: string): FormatDetection | null {
  const records: Record<string, unknown>[] = [];
  let position = 0;
  for (let read = 0; read < DETECTION_LINE_LIMIT; read += 1) {
    const line = nextMeaningfulLine(text, position);
    if (!line) break;
    position = line.end;
    records.push(...lineRecords(parseJsonlLine(line.text, read + 1)));
  }
  return pickJsonlDetection(records);
}

function nextMeaningfulLine(text: string, from: number): { text: string; end: number } | undefined {
  let start = from;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).trim();
    if (line.length > 0) return { text: line, end: end + 1 };
    start = end + 1;
  }
  return undefined;
}
