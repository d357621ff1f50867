import type { Message } from '../transcript/message.ts';
import type { TranscriptFormat, TranscriptMetadata } from '../transcript/transcript.ts';
import type { SourceLocation } from './import-warning.ts';

/**
 * A transcript being built, with the source location of every message kept beside it so that
 * later repairs (tool pairing) can name the line they are about.
 */
export interface TranscriptDraft {
  messages: Message[];
  sources: SourceLocation[];
  metadata: TranscriptMetadata;
}

export function createTranscriptDraft(format: TranscriptFormat): TranscriptDraft {
  return { messages: [], sources: [], metadata: { format, compactionPoints: [] } };
}

/** Appends a message and returns its index. */
export function pushDraftMessage(draft: TranscriptDraft, message: Message, at: SourceLocation): number {
  draft.messages.push(message);
  draft.sources.push(at);
  return draft.messages.length - 1;
}

/**
 * Removes the messages at the given indices and moves every compaction point and segment so it
 * still names the first message after it.
 */
export function removeDraftMessages(draft: TranscriptDraft, indices: ReadonlySet<number>): void {
  if (indices.size === 0) return;
  const keptBefore: number[] = new Array<number>(draft.messages.length + 1);
  const messages: Message[] = [];
  const sources: SourceLocation[] = [];
  for (let index = 0; index < draft.messages.length; index += 1) {
    keptBefore[index] = messages.length;
    if (indices.has(index)) continue;
    messages.push(draft.messages[index]!);
    sources.push(draft.sources[index] ?? {});
  }
  keptBefore[draft.messages.length] = messages.length;
  const remap = (index: number): number =>
    keptBefore[Math.min(Math.max(index, 0), draft.messages.length)] ?? 0;
  for (const point of draft.metadata.compactionPoints) point.messageIndex = remap(point.messageIndex);
  for (const segment of draft.metadata.segments ?? []) segment.messageIndex = remap(segment.messageIndex);
  draft.messages = messages;
  draft.sources = sources;
}

/** Inserts a message at the front, moving every index after it. */
export function prependDraftMessage(draft: TranscriptDraft, message: Message, at: SourceLocation): void {
  draft.messages.unshift(message);
  draft.sources.unshift(at);
  for (const point of draft.metadata.compactionPoints) point.messageIndex += 1;
  for (const segment of draft.metadata.segments ?? []) {
    if (segment.messageIndex > 0) segment.messageIndex += 1;
  }
}
