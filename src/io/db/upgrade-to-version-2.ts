import type { Transaction } from 'dexie';
import { messageSearchText } from '../../core/search/message-search-text.ts';
import { searchTermsOf } from '../../core/search/search-terms.ts';
import type { MessageRow } from './message-row.ts';
import { isStoredMessage, sessionRowWithDefaults, type SessionMessageStatistics } from './row-mappers.ts';
import type { MessageTerms } from './search-postings.ts';
import { searchBucketOf, type SearchTermRow } from './search-term-row.ts';
import type { SessionRow } from './session-row.ts';

/**
 * v1 → v2. v1 had neither rewinds nor in-place compaction, so every stored message is live.
 * Message counts and last-message times are recounted from the rows (v1 rows may not carry
 * them), and every message is added to the new search index. It runs inside Dexie's version
 * change transaction: if anything fails the database stays at v1, untouched.
 */
export async function upgradeToVersion2(transaction: Transaction): Promise<void> {
  const statisticsBySession = new Map<string, SessionMessageStatistics>();
  const entries: MessageTerms[] = [];
  await transaction
    .table<MessageRow, number>('messages')
    .toCollection()
    .modify((row) => {
      row.active = 1;
      row.compacted = 0;
      const createdAt = typeof row.createdAt === 'number' ? row.createdAt : null;
      const statistics = statisticsBySession.get(row.sessionId) ?? { messageCount: 0, lastMessageAt: null };
      statistics.messageCount++;
      if (createdAt !== null)
        statistics.lastMessageAt = Math.max(statistics.lastMessageAt ?? createdAt, createdAt);
      statisticsBySession.set(row.sessionId, statistics);
      const message: unknown = row.message;
      if (row.id !== undefined && isStoredMessage(message)) {
        entries.push({ messageId: row.id, terms: searchTermsOf(messageSearchText(message)) });
      }
    });
  await transaction.table<SearchTermRow, [number, string]>('searchTerms').bulkPut(termRowsOf(entries));
  await transaction
    .table<SessionRow, string>('sessions')
    .toCollection()
    .modify((row, reference) => {
      const statistics = statisticsBySession.get(row.id) ?? { messageCount: 0, lastMessageAt: null };
      reference.value = sessionRowWithDefaults(
        row as unknown as Record<string, unknown> & { id: string },
        statistics,
      );
    });
}

/**
 * The v2 index's rows (one per term and bucket) for messages in id order. The table is new in
 * v2, so no row exists yet to merge with; v4 regroups them into shards.
 */
function termRowsOf(entries: readonly MessageTerms[]): SearchTermRow[] {
  const rows = new Map<string, SearchTermRow>();
  for (const { messageId, terms } of entries) {
    const bucket = searchBucketOf(messageId);
    for (const term of terms) {
      const key = `${term}\u0000${bucket}`;
      const row = rows.get(key);
      if (row) row.messageIds.push(messageId);
      else rows.set(key, { term, bucket, messageIds: [messageId] });
    }
  }
  return [...rows.values()];
}
