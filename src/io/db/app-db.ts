import Dexie, { type EntityTable, type Table } from 'dexie';
import type { CompactionRow } from './compaction-row.ts';
import type { StoredMessageRow } from './message-groups.ts';
import type { PersistedOutputRow } from './persisted-output-row.ts';
import type { SearchShardRow } from './search-shard-row.ts';
import type { SessionRow } from './session-row.ts';
import type { SettingRow } from './setting-row.ts';
import { upgradeToVersion2 } from './upgrade-to-version-2.ts';
import { upgradeToVersion4 } from './upgrade-to-version-4.ts';
import { upgradeToVersion5 } from './upgrade-to-version-5.ts';
import type { UsageEventRow } from './usage-event-row.ts';

export const APP_DB_NAME = 'context-lab';

/**
 * The one IndexedDB database. Every schema version stays listed here in order, each with its
 * upgrade, so a browser holding any older version migrates forward (tests/io/db/app-db-migrations.test.ts).
 */
export class AppDb extends Dexie {
  sessions!: EntityTable<SessionRow, 'id'>;
  /** One message per row, or a group of them (`message-groups.ts`): read through that module. */
  messages!: Table<StoredMessageRow, number>;
  settings!: EntityTable<SettingRow, 'key'>;
  searchShards!: Table<SearchShardRow, [number, string]>;
  persistedOutputs!: EntityTable<PersistedOutputRow, 'fileName'>;
  usageEvents!: EntityTable<UsageEventRow, 'id'>;
  compactions!: EntityTable<CompactionRow, 'id'>;

  constructor(name: string = APP_DB_NAME) {
    super(name);
    // v1 (2026-11-22): sessions with lineage and time indexes; messages ordered by an
    // auto-increment id, read per session through [sessionId+id]; settings by key.
    this.version(1).stores({
      sessions: 'id, startedAt, parentSessionId',
      messages: '++id, sessionId, [sessionId+id]',
      settings: 'key',
    });
    // v2 (2026-11-24): the session store (hermes-reference §11). Sessions gain the compressor
    // state, provider and last-message time, and a title index (next title in a lineage);
    // messages gain Hermes' active/compacted flags; new tables: the search index's posting
    // lists keyed [bucket+term] (newest bucket first at query time, see search-index.ts),
    // large tool outputs by file name, per-response usage. The upgrade fills the new fields and indexes every stored message.
    this.version(2)
      .stores({
        sessions: 'id, startedAt, parentSessionId, title',
        messages: '++id, sessionId, [sessionId+id]',
        settings: 'key',
        searchTerms: '[bucket+term]',
        persistedOutputs: 'fileName, sessionId',
        usageEvents: '++id, sessionId',
      })
      .upgrade(upgradeToVersion2);
    // v3 (2026-11-27): compaction epochs (issue 15). Every committed compaction, in place or by
    // rotation, with what undo and redo need; looked up by the session it compacted and by the
    // continuation it created. A new table only: older rows need no change.
    this.version(3).stores({
      sessions: 'id, startedAt, parentSessionId, title',
      messages: '++id, sessionId, [sessionId+id]',
      settings: 'key',
      searchTerms: '[bucket+term]',
      persistedOutputs: 'fileName, sessionId',
      usageEvents: '++id, sessionId',
      compactions: '++id, sessionId, childSessionId',
    });
    // v4 (2026-11-25): the search index's posting lists grouped into shards by their terms'
    // first two characters, keyed [bucket+shard] (search-shard-row.ts): a 100 MiB import wrote
    // 112,544 term rows, 14,373 shards. The upgrade regroups every v2–v3 term row, then Dexie
    // drops the old table.
    this.version(4)
      .stores({
        sessions: 'id, startedAt, parentSessionId, title',
        messages: '++id, sessionId, [sessionId+id]',
        settings: 'key',
        searchTerms: null,
        searchShards: '[bucket+shard]',
        persistedOutputs: 'fileName, sessionId',
        usageEvents: '++id, sessionId',
        compactions: '++id, sessionId, childSessionId',
      })
      .upgrade(upgradeToVersion4);
    // v5 (2026-12-03): the same tables; the search index's shards group terms by their first
    // code point instead of their first two (search-shard-row.ts): a 100 MiB import writes 1,188
    // shard rows instead of 14,373. The upgrade regroups every v4 shard.
    this.version(5)
      .stores({
        sessions: 'id, startedAt, parentSessionId, title',
        messages: '++id, sessionId, [sessionId+id]',
        settings: 'key',
        searchShards: '[bucket+shard]',
        persistedOutputs: 'fileName, sessionId',
        usageEvents: '++id, sessionId',
        compactions: '++id, sessionId, childSessionId',
      })
      .upgrade(upgradeToVersion5);
    // v6 (2026-12-05): a messages row may hold a group of consecutive messages, keyed by its last
    // id (message-groups.ts): an import writes ~64 times fewer rows. The new index lists each
    // group's first id by session, so a session's message ids are known from keys alone. Older
    // rows hold one message each and stay as they are; IndexedDB builds the index (they have
    // no `firstId`, so it starts empty).
    this.version(6).stores({
      sessions: 'id, startedAt, parentSessionId, title',
      messages: '++id, sessionId, [sessionId+id], [sessionId+firstId]',
      settings: 'key',
      searchShards: '[bucket+shard]',
      persistedOutputs: 'fileName, sessionId',
      usageEvents: '++id, sessionId',
      compactions: '++id, sessionId, childSessionId',
    });
  }
}
