import Dexie from 'dexie';
import type { Message } from '../../core/transcript/message.ts';
import type { AppDb } from './app-db.ts';
import type { MessageRow } from './message-row.ts';
import { messageToRow } from './row-mappers.ts';

/**
 * Messages stored several to a row (schema v6). IndexedDB in Chromium costs about 90 µs of its
 * backend thread per row written, whatever the row holds (README Decisions, 2026-12-05), and a
 * 100 MiB import is 33,736 messages: written one to a row, that alone is ~3 s. An import
 * therefore writes its messages as groups of up to `MESSAGE_GROUP_MAX` consecutive ids.
 *
 * The rule every reader and writer relies on: a group holds only live (`active=1,
 * compacted=0`), unpinned messages of one session, with consecutive ids `firstId … id`. Its key
 * is its *last* id, so writing it moves the table's key generator past every id it holds (the
 * ids are never handed out again). Anything that changes one of its messages — a flag, a pin, a
 * move to a continuation — goes through `changeMessageRows`, which splits the group into ordinary
 * one-message rows at the same ids; readers see groups only as the rows they stand for
 * (`expandMessageRows`). Chat appends and compactions keep writing one row per message.
 */
export const MESSAGE_GROUP_MAX = 64;

export interface MessageGroupRow {
  /** The last message's id: the row's key. */
  id: number;
  /** The first message's id; indexed with the session so a session's ids are known without reading its messages. */
  firstId: number;
  sessionId: string;
  /** The messages with ids `firstId … id`, in order. */
  messages: Message[];
  createdAt: number;
}

/** A row of the messages table: one message, or a group of them. */
export type StoredMessageRow = MessageRow | MessageGroupRow;

export const isMessageGroup = (row: StoredMessageRow): row is MessageGroupRow => 'messages' in row;

/** The one-message rows a group stands for: live, unpinned, at their own ids. */
export function groupMessageRows(group: MessageGroupRow): MessageRow[] {
  return group.messages.map((message, offset) => ({
    ...messageToRow(group.sessionId, message, group.createdAt),
    id: group.firstId + offset,
  }));
}

/** Rows as one message each, in the order given, groups expanded in place. */
export function expandMessageRows(rows: readonly StoredMessageRow[]): MessageRow[] {
  if (!rows.some(isMessageGroup)) return rows as MessageRow[];
  return rows.flatMap((row) => (isMessageGroup(row) ? groupMessageRows(row) : [row]));
}

/**
 * The rows that store `messages` (ids `firstId`, `firstId + 1`, …) for a new session: runs of
 * unpinned messages as groups of up to `MESSAGE_GROUP_MAX`, each pinned message a row of its own
 * (a pin is a flag of one row). Pure: the caller chooses `firstId` and writes the rows.
 */
export function rowsForNewMessages(
  sessionId: string,
  messages: readonly Message[],
  firstId: number,
  createdAt: number,
  isPinned: (index: number) => boolean = () => false,
): StoredMessageRow[] {
  const rows: StoredMessageRow[] = [];
  let run: Message[] = [];
  let runStart = 0;
  const closeRun = (): void => {
    if (run.length === 1)
      rows.push({ ...messageToRow(sessionId, run[0]!, createdAt), id: firstId + runStart });
    else if (run.length > 1)
      rows.push({
        id: firstId + runStart + run.length - 1,
        firstId: firstId + runStart,
        sessionId,
        messages: run,
        createdAt,
      });
    run = [];
  };
  messages.forEach((message, index) => {
    if (isPinned(index)) {
      closeRun();
      rows.push({ ...messageToRow(sessionId, message, createdAt, true), id: firstId + index });
      return;
    }
    if (run.length === 0) runStart = index;
    run.push(message);
    if (run.length === MESSAGE_GROUP_MAX) closeRun();
  });
  closeRun();
  return rows;
}

/**
 * Adds `messages` to `sessionId` as new rows, grouped, and returns their ids and the rows' keys.
 * The first message is added alone, so the table's key generator hands out its id; the others
 * take the ids after it, which nothing else can take while this transaction holds the table.
 * Call inside a read-write transaction over the messages table.
 *
 * `whileWriting` runs once the rows are handed to the database and before their write is
 * awaited: work that would otherwise wait for the write (the import finds the next batch's
 * search terms there). It must not await: the transaction is only kept open by the write.
 */
export async function addGroupedMessages(
  db: AppDb,
  sessionId: string,
  messages: readonly Message[],
  createdAt: number,
  options: { isPinned?: (index: number) => boolean; whileWriting?: () => void } = {},
): Promise<{ ids: number[]; rowKeys: number[] }> {
  const isPinned = options.isPinned ?? (() => false);
  if (messages.length === 0) return { ids: [], rowKeys: [] };
  const firstId = await db.messages.add(messageToRow(sessionId, messages[0]!, createdAt, isPinned(0)));
  const rows = rowsForNewMessages(sessionId, messages.slice(1), firstId + 1, createdAt, (index) =>
    isPinned(index + 1),
  );
  const writing = db.messages.bulkAdd(rows);
  try {
    options.whileWriting?.();
  } finally {
    await writing;
  }
  return {
    ids: Array.from({ length: messages.length }, (_, offset) => firstId + offset),
    rowKeys: [firstId, ...rows.map((row) => row.id!)],
  };
}

/** Every stored row of a session as one message each, in id order (the order key). */
export async function readSessionMessageRows(db: AppDb, sessionId: string): Promise<MessageRow[]> {
  return expandMessageRows(
    await db.messages
      .where('[sessionId+id]')
      .between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
      .toArray(),
  );
}

/**
 * The rows of the given message ids, in their order (`undefined` where none is stored). An id
 * inside a group is found by the first key at or above it: one read per group reached.
 */
export async function readMessageRows(
  db: AppDb,
  ids: readonly number[],
): Promise<Array<MessageRow | undefined>> {
  const direct = await db.messages.bulkGet([...ids]);
  const inGroups = new Map<number, MessageRow>();
  const result: Array<MessageRow | undefined> = new Array<MessageRow | undefined>(ids.length);
  const misses: number[] = [];
  direct.forEach((row, index) => {
    if (row === undefined) misses.push(index);
    else if (isMessageGroup(row)) result[index] = groupMessageRows(row).at(-1);
    else result[index] = row;
  });
  for (const index of misses) {
    const id = ids[index]!;
    if (!inGroups.has(id)) {
      const group = await groupHolding(db, id);
      if (group !== undefined) for (const row of groupMessageRows(group)) inGroups.set(row.id!, row);
    }
    result[index] = inGroups.get(id);
  }
  return result;
}

/**
 * Changes the stored messages `ids` with `change` (a flag, a pin, the session they belong to);
 * returns how many were found. A group holding one of them is first split into one-message rows
 * at the same ids, the change applied as they are written (one write per row, not two); the
 * other rows are changed in place. Call inside a read-write transaction over the messages table.
 */
export async function changeMessageRows(
  db: AppDb,
  ids: readonly number[],
  change: (row: MessageRow) => void,
): Promise<number> {
  if (ids.length === 0) return 0;
  const split = await splitGroupsChanging(db, ids, change);
  const rest = split.size === 0 ? ids : ids.filter((id) => !split.has(id));
  if (rest.length === 0) return split.size;
  const changed = await db.messages
    .where('id')
    .anyOf([...rest])
    .modify((stored) => {
      // Every group holding one of `ids` was split above, so a group here is a bug.
      if (isMessageGroup(stored))
        throw new Error(
          `Message row ${stored.id} is a group of ${stored.messages.length}; it was not split.`,
        );
      change(stored);
    });
  return split.size + changed;
}

/**
 * Splits every group holding one of `ids` into one-message rows at the same ids, applying
 * `change` to the rows of `ids` as it writes them; returns those ids.
 */
async function splitGroupsChanging(
  db: AppDb,
  ids: readonly number[],
  change: (row: MessageRow) => void,
): Promise<Set<number>> {
  const written = new Set<number>();
  if (ids.length === 0) return written;
  const groups: MessageGroupRow[] = [];
  const covered = new Set<number>();
  const found = (group: MessageGroupRow): void => {
    groups.push(group);
    for (let id = group.firstId; id <= group.id; id++) covered.add(id);
  };
  const direct = await db.messages.bulkGet([...ids]);
  for (const row of direct) if (row !== undefined && isMessageGroup(row)) found(row);
  for (const [index, row] of direct.entries()) {
    const id = ids[index]!;
    if (row !== undefined || covered.has(id)) continue;
    const group = await groupHolding(db, id);
    if (group !== undefined) found(group);
  }
  if (groups.length === 0) return written;
  const wanted = new Set(ids);
  const rows = groups.flatMap(groupMessageRows);
  for (const row of rows)
    if (wanted.has(row.id!)) {
      change(row);
      written.add(row.id!);
    }
  // The last one-message row takes the group's key, so the put replaces the group.
  await db.messages.bulkPut(rows);
  return written;
}

/**
 * The ids of every message a session stores, ascending, read from the keys alone (no message is
 * read): the rows' keys, each group's key standing for `firstId … id`.
 */
export async function sessionMessageIds(db: AppDb, sessionId: string): Promise<number[]> {
  const keys = await db.messages.where('sessionId').equals(sessionId).primaryKeys();
  const firstIds = new Map<number, number>();
  await db.messages
    .where('[sessionId+firstId]')
    .between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
    .eachKey((key, cursor) => {
      const lastId = cursor.primaryKey;
      if (Array.isArray(key) && typeof key[1] === 'number' && typeof lastId === 'number')
        firstIds.set(lastId, key[1]);
    });
  const ids: number[] = [];
  for (const key of keys) {
    if (typeof key !== 'number') continue;
    const firstId = firstIds.get(key) ?? key;
    for (let id = firstId; id <= key; id++) ids.push(id);
  }
  return ids.sort((first, second) => first - second);
}

/** The group holding `id`, if one does: the first row keyed at or above it, when it starts at or below it. */
async function groupHolding(db: AppDb, id: number): Promise<MessageGroupRow | undefined> {
  const row = await db.messages
    .where(':id')
    .between(id, id + MESSAGE_GROUP_MAX, true, false)
    .first();
  return row !== undefined && isMessageGroup(row) && row.firstId <= id ? row : undefined;
}
