import Dexie, { type EntityTable } from 'dexie';
import type { MessageRow } from './message-row.ts';
import type { SessionRow } from './session-row.ts';
import type { SettingRow } from './setting-row.ts';

export const APP_DB_NAME = 'context-lab';

/**
 * The one IndexedDB database. Every schema version stays listed here in order, each with its
 * upgrade, so a browser holding any older version migrates forward (tests/io/db/app-db-migrations.test.ts).
 */
export class AppDb extends Dexie {
  sessions!: EntityTable<SessionRow, 'id'>;
  messages!: EntityTable<MessageRow, 'id'>;
  settings!: EntityTable<SettingRow, 'key'>;

  constructor(name: string = APP_DB_NAME) {
    super(name);
    // v1 (2026-11-22): sessions with lineage and time indexes; messages ordered by an
    // auto-increment id, read per session through [sessionId+id]; settings by key.
    this.version(1).stores({
      sessions: 'id, startedAt, parentSessionId',
      messages: '++id, sessionId, [sessionId+id]',
      settings: 'key',
    });
  }
}
