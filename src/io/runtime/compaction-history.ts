/**
 * Undo and redo of the live conversation's compactions (ROUND2 §4), under the same cross-tab
 * lock as compaction: the store changes the rows in one transaction and refuses when the epoch
 * the user saw is no longer the one to change, so two tabs never undo twice.
 */
import type { CompactionEpoch } from '../../core/sessions/compaction-epoch.ts';
import { formatCount } from '../../core/shared/format-count.ts';
import type { ConversationStore, StoredChatSession } from './conversation-store.ts';

export type HistoryDirection = 'undo' | 'redo';

export type HistoryChangeOutcome =
  | { readonly kind: 'changed'; readonly session: StoredChatSession; readonly epoch: CompactionEpoch }
  /** Nothing to change, or another tab changed it first; `tipSessionId` when the conversation moved. */
  | { readonly kind: 'refused'; readonly message: string; readonly tipSessionId: string | null }
  /** Another tab is compacting, undoing or redoing this session right now. */
  | { readonly kind: 'busy'; readonly message: string };

/**
 * Undoes or redoes one compaction of the conversation live in `sessionId`. `expectedEpochId` is
 * the epoch the user saw offered; without it, the one offered now under the lock.
 */
export async function changeCompactionHistory(
  store: ConversationStore,
  sessionId: string,
  direction: HistoryDirection,
  expectedEpochId?: number,
): Promise<HistoryChangeOutcome> {
  const locked = await store.withCompactionLock(sessionId, async (): Promise<HistoryChangeOutcome> => {
    const expected = expectedEpochId ?? (await store.compactionHistory(sessionId))[direction]?.id;
    if (expected === undefined)
      return {
        kind: 'refused',
        message:
          direction === 'undo' ? 'There is no compaction to undo.' : 'There is no undone compaction to redo.',
        tipSessionId: null,
      };
    const changed =
      direction === 'undo'
        ? await store.undoCompaction(sessionId, expected)
        : await store.redoCompaction(sessionId, expected);
    if (changed.ok) return { kind: 'changed', ...changed.value };
    return { kind: 'refused', message: changed.error.message, tipSessionId: changed.error.tipSessionId };
  });
  return locked.ok ? locked.value : { kind: 'busy', message: locked.error.message };
}

/** One line for the chat: what the change did. */
export function describeHistoryChange(direction: HistoryDirection, epoch: CompactionEpoch): string {
  const { boundaries } = epoch;
  const replaced = boundaries.summarized + boundaries.dropped;
  return direction === 'undo'
    ? `Compaction ${epoch.number} undone: the ${formatCount(replaced)} messages it had summarised or dropped are back in the conversation (${formatCount(boundaries.messagesBefore)} messages before it). Redo applies it again.`
    : `Compaction ${epoch.number} applied again: ${formatCount(boundaries.messagesBefore)} → ${formatCount(boundaries.messagesAfter)} messages.`;
}
