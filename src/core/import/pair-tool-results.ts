import type { ImportContext } from './import-context.ts';
import { removeDraftMessages, type TranscriptDraft } from './transcript-draft.ts';

interface CallRecord {
  effectiveId: string;
  name: string;
  answered: boolean;
  messageIndex: number;
}

/**
 * Makes every tool result answer exactly one earlier call, as the chat APIs require.
 *
 * - A result with no earlier call of its id (an orphan) or repeating an answered call is
 *   dropped with a warning: its call is not in the transcript, so no model could have seen
 *   the pair, and keeping it would send an invalid request.
 * - A call id used a second time is renamed (`id~2`), and later results bind to the newest
 *   call of that id.
 * - Calls without a result are kept with a warning; the compressor's sanitiser stubs them.
 *
 * In `check` mode (our own lossless format) the same problems are reported but nothing changes.
 */
export function pairToolResults(
  draft: TranscriptDraft,
  context: ImportContext,
  mode: 'repair' | 'check' = 'repair',
): void {
  const repair = mode === 'repair';
  const newestCallById = new Map<string, CallRecord>();
  const calls: CallRecord[] = [];
  const usedIds = new Set<string>();
  const drop = new Set<number>();

  draft.messages.forEach((message, index) => {
    const at = draft.sources[index] ?? {};
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        const originalId = call.id;
        let effectiveId = originalId;
        for (let copy = 2; usedIds.has(effectiveId); copy += 1) effectiveId = `${originalId}~${copy}`;
        if (effectiveId !== originalId) {
          if (repair) {
            call.id = effectiveId;
            context.repaired(at, `reuses tool call id "${originalId}"; renamed to "${effectiveId}"`);
          } else context.note(at, `reuses tool call id "${originalId}"`);
        }
        usedIds.add(effectiveId);
        const record: CallRecord = {
          effectiveId,
          name: call.function.name,
          answered: false,
          messageIndex: index,
        };
        newestCallById.set(originalId, record);
        calls.push(record);
      }
      return;
    }
    if (message.role !== 'tool') return;
    const id = typeof message.tool_call_id === 'string' ? message.tool_call_id : '';
    const call = id ? newestCallById.get(id) : undefined;
    const outcome = repair ? '; dropped' : '';
    if (!call) {
      if (repair) drop.add(index);
      const reason = id
        ? `has a tool result for call "${id}", which no earlier message makes${outcome}`
        : `has a tool result without a call id${outcome}`;
      if (repair) context.skipPart(at, reason);
      else context.note(at, reason);
      return;
    }
    if (call.answered) {
      if (repair) {
        drop.add(index);
        context.skipPart(at, `repeats the result of call "${id}"; dropped`);
      } else context.note(at, `repeats the result of call "${id}"`);
      return;
    }
    call.answered = true;
    if (repair) message.tool_call_id = call.effectiveId;
  });

  for (const call of calls) {
    if (call.answered) continue;
    context.note(
      draft.sources[call.messageIndex] ?? {},
      `has call "${call.effectiveId}" (${call.name}) with no result; kept for the sanitiser to stub`,
    );
  }
  removeDraftMessages(draft, drop);
}
