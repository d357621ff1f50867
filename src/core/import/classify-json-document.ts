import { isPlainObject } from '../shared/safe-parse-json.ts';
import { TRANSCRIPT_FORMAT_SPECS } from './formats/transcript-format-registry.ts';
import type { FormatDetection } from './format-detection.ts';
import { firstObject } from './has-anthropic-blocks.ts';
import { unwrapCapturedBody } from './unwrap-captured-body.ts';

/** Records of a JSONL format gathered in a document say a little less than the same lines would. */
export const RECORDS_IN_DOCUMENT_FACTOR = 0.9;

/**
 * Which format a whole JSON document (object or array) is, if its shape says so: every
 * format's document detector, and the record detector of JSONL formats (on the object itself,
 * or on an array's first object), the most confident winning. An HTTP capture is judged by
 * the request under its `body` as well.
 */
export function classifyJsonDocument(value: unknown): FormatDetection | null {
  let best = classifyShape(value);
  if (isPlainObject(value)) {
    const body = unwrapCapturedBody(value);
    const inner = body ? classifyShape(body) : null;
    if (inner && (!best || inner.confidence > best.confidence)) {
      best = { ...inner, reason: `${inner.reason} (captured request: payload under "body")` };
    }
  }
  return best;
}

function classifyShape(value: unknown): FormatDetection | null {
  const record = Array.isArray(value) ? firstObject(value) : isPlainObject(value) ? value : undefined;
  const recordFactor = Array.isArray(value) ? RECORDS_IN_DOCUMENT_FACTOR : 1;
  let best: FormatDetection | null = null;
  for (const spec of TRANSCRIPT_FORMAT_SPECS) {
    const { document, record: recordDetector } = spec.detect;
    const candidates = [
      document?.(value) ?? null,
      record && recordDetector ? scaled(recordDetector(record), recordFactor) : null,
    ];
    for (const candidate of candidates) {
      if (candidate && (!best || candidate.confidence > best.confidence)) {
        best = { format: spec.id, confidence: candidate.confidence, reason: candidate.reason };
      }
    }
  }
  return best;
}

const scaled = <T extends { confidence: number }>(evidence: T | null, factor: number): T | null =>
  evidence && factor !== 1 ? { ...evidence, confidence: evidence.confidence * factor } : evidence;
