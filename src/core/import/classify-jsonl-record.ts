import { TRANSCRIPT_FORMAT_SPECS } from './formats/transcript-format-registry.ts';
import type { FormatDetection } from './format-detection.ts';

/** Which JSONL format one line's object belongs to, if its shape says so (registry order breaks ties). */
export function classifyJsonlRecord(record: Record<string, unknown>): FormatDetection | null {
  let best: FormatDetection | null = null;
  for (const spec of TRANSCRIPT_FORMAT_SPECS) {
    const evidence = spec.detect.record?.(record);
    if (evidence && (!best || evidence.confidence > best.confidence)) {
      best = { format: spec.id, confidence: evidence.confidence, reason: evidence.reason };
    }
  }
  return best;
}
