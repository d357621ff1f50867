import { assertNever } from '../../core/shared/assert-never.ts';
import { transcriptFormatLabel } from '../../core/import/transcript-format-label.ts';
import type { TranscriptMetadata } from '../../core/transcript/transcript.ts';
import type { TranscriptSource } from '../../state/app-state.svelte.ts';

/** The top bar's line under the title: what is on screen, and how its model relates to it. */
export interface SourceDescription {
  /** `built-in demo`, `imported · Claude Code JSONL`, `live chat session`, `stored chat session`, … */
  readonly what: string;
  /** How to read the model name after it: the model a file was recorded with, or the one a chat talked to. */
  readonly modelVerb: 'recorded with' | 'with';
}

/**
 * Says where the transcript on screen comes from. A stored session says what kind it is (a chat
 * conversation is not an import, whatever opened it), and the import format is named only for
 * transcripts read from a file.
 */
export function describeSource(
  source: TranscriptSource,
  origin: string | null,
  metadata: Pick<TranscriptMetadata, 'format'>,
): SourceDescription {
  const format = metadata.format === 'internal' ? null : transcriptFormatLabel(metadata.format);
  switch (source) {
    case 'demo':
      return { what: 'built-in demo', modelVerb: 'recorded with' };
    case 'import':
      return { what: format ? `imported · ${format}` : 'imported', modelVerb: 'recorded with' };
    case 'replay':
      // Once saved, the result on screen is that stored session (its origin says so).
      return {
        what: origin === 'replay' ? 'stored replay result' : 'replay result',
        modelVerb: 'recorded with',
      };
    case 'epoch':
      return { what: 'stored compaction (read-only)', modelVerb: 'recorded with' };
    case 'chat':
      return { what: 'live chat session', modelVerb: 'with' };
    case 'session':
      switch (origin) {
        case 'chat':
          return { what: 'stored chat session', modelVerb: 'with' };
        case 'import':
          return { what: format ? `stored import · ${format}` : 'stored import', modelVerb: 'recorded with' };
        case 'replay':
          return { what: 'stored replay result', modelVerb: 'recorded with' };
        case 'demo':
          return { what: 'stored demo', modelVerb: 'recorded with' };
        default:
          return { what: 'stored session', modelVerb: 'recorded with' };
      }
    default:
      return assertNever(source);
  }
}
