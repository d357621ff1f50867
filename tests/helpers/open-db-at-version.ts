import Dexie from 'dexie';

/**
 * Creates a database exactly as an older release of the app did: only the schema versions
 * that release declared. Seed it with that release's rows, close it, then open the current
 * AppDb on the same name to exercise the upgrade path (tldraw-style migration tests).
 */
export async function seedDatabaseAtVersion(
  name: string,
  schemas: ReadonlyArray<Record<string, string>>,
  seed: (db: Dexie) => Promise<void>,
): Promise<void> {
  const db = new Dexie(name);
  schemas.forEach((stores, index) => db.version(index + 1).stores(stores));
  await db.open();
  await seed(db);
  db.close();
}

let counter = 0;
/** A database name no other test uses (fake-indexeddb is shared within a worker). */
export const uniqueDbName = (label: string): string => `test-${label}-${++counter}-${process.pid}`;
