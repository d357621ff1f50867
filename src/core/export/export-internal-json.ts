import type { Transcript } from '../transcript/transcript.ts';

/** The tag and version that `importTranscript` recognises as Context Lab's own format. */
export const INTERNAL_TRANSCRIPT_FORMAT = 'context-lab-transcript';
export const INTERNAL_TRANSCRIPT_VERSION = 1;

/**
 * Context Lab's lossless JSON: `{"format":"context-lab-transcript","version":1,"metadata":…,
 * "messages":[…]}` with one message per line, so large exports stay diffable. Reading it back
 * with `importTranscript` gives the same transcript (messages verbatim, metadata validated).
 *
 * @example
 * const text = exportInternalJson(transcript);
 * importTranscript(text) // → ok, transcript deep-equal to the original
 */
export function exportInternalJson(transcript: Transcript): string {
  const head = `{"format":${JSON.stringify(INTERNAL_TRANSCRIPT_FORMAT)},"version":${INTERNAL_TRANSCRIPT_VERSION},`;
  const metadata = `"metadata":${JSON.stringify(transcript.metadata)},`;
  const messages = transcript.messages.map((message) => JSON.stringify(message)).join(',\n');
  return `${head}\n${metadata}\n"messages":[\n${messages}\n]}\n`;
}
