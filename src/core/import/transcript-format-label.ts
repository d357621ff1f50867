import type { TranscriptFormat } from '../transcript/transcript.ts';
import { TRANSCRIPT_FORMAT_SPECS, transcriptFormatSpec } from './formats/transcript-format-registry.ts';

/** The name a person reads in an error message or the import dialog. */
export function transcriptFormatLabel(format: TranscriptFormat | 'unknown'): string {
  return format === 'unknown' ? 'Transcript import' : transcriptFormatSpec(format).label;
}

/** Formats read one JSON object per line (and can be streamed). */
export function isJsonlFormat(format: TranscriptFormat): boolean {
  return transcriptFormatSpec(format).layout === 'jsonl';
}

/** What a file of this format looks like, for the "expected …" part of an error. */
export function transcriptFormatExpectation(format: TranscriptFormat | 'unknown'): string {
  if (format !== 'unknown') return transcriptFormatSpec(format).expectation;
  const labels = TRANSCRIPT_FORMAT_SPECS.filter((spec) => !spec.lossless).map((spec) => spec.label);
  return `a transcript in one of these formats: ${labels.join(', ')}`;
}
