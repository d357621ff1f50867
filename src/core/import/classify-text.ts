import { TRANSCRIPT_FORMAT_SPECS } from './formats/transcript-format-registry.ts';
import type { FormatDetection } from './format-detection.ts';

/** How much of a non-JSON text its detectors see: the formats show themselves in their first lines. */
export const TEXT_DETECTION_CHARS = 4096;

/** Which text (non-JSON) format a text is, from its beginning. */
export function classifyText(text: string): FormatDetection | null {
  const head = text.slice(0, TEXT_DETECTION_CHARS);
  let best: FormatDetection | null = null;
  for (const spec of TRANSCRIPT_FORMAT_SPECS) {
    const evidence = spec.detect.text?.(head);
    if (evidence && (!best || evidence.confidence > best.confidence)) {
      best = { format: spec.id, confidence: evidence.confidence, reason: evidence.reason };
    }
  }
  return best;
}
