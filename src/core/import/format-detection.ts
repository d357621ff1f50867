import type { TranscriptFormat } from '../transcript/transcript.ts';

/** A guess at a file's format from its structure (never its name). */
export interface FormatDetection {
  format: TranscriptFormat;
  /** 0–1. At or above `CONFIDENT_DETECTION` the structure is distinctive for the format. */
  confidence: number;
  /** What in the structure gave it away, for the import dialog. */
  reason: string;
}

/** Confidence at which one record is enough to decide. */
export const CONFIDENT_DETECTION = 0.9;

export const detection = (format: TranscriptFormat, confidence: number, reason: string): FormatDetection => ({
  format,
  confidence,
  reason,
});
