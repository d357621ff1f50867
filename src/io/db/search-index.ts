import Dexie from 'dexie';
import { messageSearchText } from '../../core/search/message-search-text.ts';
import { parseSearchQuery, type SearchQueryTerm } from '../../core/search/search-query.ts';
import { buildSearchSnippet, type MatchRange } from '../../core/search/search-snippet.ts';
import { searchTermsInSteps } from '../../core/search/search-terms.ts';
import { messagePreview } from '../../core/transcript/message-preview.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { AppDb } from './app-db.ts';
import {
  expandMessageRows,
  isMessageGroup,
  readMessageRows,
  sessionMessageIds,
  type StoredMessageRow,
} from './message-groups.ts';
import type { MessageRow } from './message-row.ts';
import { addSearchPostings, removeSearchPostings } from './search-postings.ts';
import { searchShardOf, searchShardRange, type SearchShardRow } from './search-shard-row.ts';

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAXIMUM_SEARCH_LIMIT = 200;
/** Tokenising runs in slices this long, then yields, so a large import never freezes the page. */
export const TOKENISE_SLICE_MS = 12;
/** Within one message, the clock is checked after each step of this many characters. */
export const TOKENISE_STEP_CHARS = 4096;
/** Read this many times the buckets the hit rate so far predicts, so one more round is rarely needed. */
const BATCH_HEADROOM = 1.5;

export interface SearchOptions {
  /** At most this many hits, newest first (default 20, at most 200). */
  limit?: number;
  /** Only messages of these sessions. */
  sessionIds?: readonly string[];
  /** Previews of the neighbouring messages (default true). */
  includeContext?: boolean;
}

export interface SearchHit {
  sessionId: string;
  sessionTitle: string | null;
  messageId: number;
  role: string;
  createdAt: number;
  /** An excerpt around the first match; `matches` are ranges inside it to highlight. */
  snippet: string;
  matches: MatchRange[];
  /** One-line previews of the messages before and after in the same session (Hermes gives one each side). */
  contextBefore: string | null;
  contextAfter: string | null;
}

/** The distinct terms of each message, computed before the write transaction opens. */
export type PreparedTerms = ReadonlyArray<readonly string[]>;

export interface SearchIndexDeps {
  /** Gives the event loop a turn between tokenising slices. */
  yieldToEventLoop?: () => Promise<void>;
  /** A monotonic clock for the slices. */
  clock?: () => number;
  /** How a message's text becomes index terms, in steps (tests inject a failing one). */
  termsInSteps?: (text: string, stepChars: number) => Generator<void, string[]>;
}

/**
 * The inverted index over every stored message (Hermes' `messages_fts`, hermes-reference §11):
 * live rows, rows archived by compaction and the messages of ended continuation ancestors are
 * all found; rewound rows (`active=0, compacted=0`) are not, nor the messages of an import
 * still being stored in batches (no session row yet). Multi-word queries AND their
 * terms and the last one matches as a prefix; hits come newest first (no ranking).
 */
export class SearchIndex {
  readonly #db: AppDb;
  readonly #yield: () => Promise<void>;
  readonly #clock: () => number;
  readonly #termsInSteps: (text: string, stepChars: number) => Generator<void, string[]>;

  constructor(db: AppDb, deps: SearchIndexDeps = {}) {
    this.#db = db;
    this.#termsInSteps = deps.termsInSteps ?? searchTermsInSteps;
    this.#yield = deps.yieldToEventLoop ?? (() => new Promise((resolve) => setTimeout(resolve, 0)));
    this.#clock = deps.clock ?? (() => performance.now());
  }

  /**
   * Tokenises messages outside any transaction. Why not inside: an IndexedDB transaction
   * commits as soon as a task ends with no request pending, so a write transaction cannot
   * yield to the event loop; tokenising a 100 MB import in one task would block the page.
   */
  async prepare(messages: readonly Message[]): Promise<PreparedTerms> {
    return this.finishPreparing(this.startPreparing(messages));
  }

  /**
   * The terms of `messages`, found a step at a time as the caller advances it: an import finds
   * the next batch's terms in bounded pieces while the database writes the current one.
   */
  startPreparing(messages: readonly Message[]): TermPreparation {
    return new TermPreparation(messages, (message) => this.#termsOfMessage(message), this.#clock);
  }

  /** Finishes a preparation in slices, giving the event loop a turn between them. */
  async finishPreparing(preparation: TermPreparation): Promise<PreparedTerms> {
    while (!preparation.advance(TOKENISE_SLICE_MS)) await this.#yield();
    return preparation.terms();
  }

  /**
   * One message's terms, step by step. A message whose text cannot be tokenised (an engine limit
   * on some input nobody foresaw) is stored without terms: unsearchable, but never the reason a
   * whole import or turn is not stored.
   */
  *#termsOfMessage(message: Message): Generator<void, string[]> {
    try {
      return yield* this.#termsInSteps(messageSearchText(message), TOKENISE_STEP_CHARS);
    } catch {
      return [];
    }
  }

  /** Indexes stored messages. Call inside a read-write transaction over `searchShards`. */
  async add(prepared: PreparedTerms, messageIds: readonly number[]): Promise<void> {
    await addSearchPostings(
      this.#db.searchShards,
      messageIds.map((messageId, index) => ({ messageId, terms: prepared[index] ?? [] })),
    );
  }

  /** Unindexes messages. Call inside a read-write transaction over `searchShards`. */
  async remove(messageIds: readonly number[]): Promise<void> {
    await removeSearchPostings(this.#db.searchShards, messageIds);
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const terms = parseSearchQuery(query);
    if (terms.length === 0) return [];
    const limit = Math.min(
      MAXIMUM_SEARCH_LIMIT,
      Math.max(1, Math.floor(options.limit ?? DEFAULT_SEARCH_LIMIT)),
    );
    const { messages, sessions, searchShards } = this.#db;
    // One read transaction: a consistent snapshot even while another tab is writing.
    return this.#db.transaction('r', [searchShards, messages, sessions], async () => {
      const allowed =
        options.sessionIds === undefined
          ? null
          : new Set<number | undefined>(
              (await Promise.all(options.sessionIds.map((id) => sessionMessageIds(this.#db, id)))).flat(),
            );
      const rows = await this.#newestMatchingRows(terms, limit, allowed);
      const sessionIds = [...new Set(rows.map((row) => row.sessionId))];
      const sessionRows = await sessions.bulkGet(sessionIds);
      const titles = new Map(sessionIds.map((id, index) => [id, sessionRows[index]?.title ?? null]));
      const neighbours = options.includeContext === false ? null : await this.#neighbours(rows);
      return rows.map((row, index) => toHit(row, terms, titles, neighbours?.[index] ?? NO_NEIGHBOURS));
    });
  }

  /**
   * The newest `limit` searchable messages holding every term. Shard rows are keyed bucket
   * first, so the search reads buckets from the newest down and stops as soon as it has
   * enough hits: a common word is answered from its newest bucket rather than from all its
   * postings, and a short prefix ("co") is expanded only within the buckets read. An exact
   * term's shards are point reads, all fetched at once, and rule out the buckets it is absent
   * from; each round then scans prefixes in as many buckets as the hit rate so far says are
   * still needed (four times more after a round without hits).
   */
  async #newestMatchingRows(
    terms: readonly SearchQueryTerm[],
    limit: number,
    allowed: ReadonlySet<number | undefined> | null,
  ): Promise<MessageRow[]> {
    const { searchShards, sessions } = this.#db;
    const newestKey = await searchShards.orderBy(':id').lastKey();
    const newestBucket: unknown = Array.isArray(newestKey) ? newestKey[0] : undefined;
    if (typeof newestBucket !== 'number') return [];
    const allBuckets = Array.from({ length: newestBucket + 1 }, (_, offset) => newestBucket - offset);
    const exactTerms = terms.filter((term) => !term.prefix).map((term) => term.term);
    const prefixTerms = terms.filter((term) => term.prefix).map((term) => term.term);
    // Exact terms are point reads of their shard in every bucket at once; `exactPostings[t][b]`
    // is term t's ids in allBuckets[b].
    const exactPostings = await Promise.all(
      exactTerms.map(async (term) => {
        const shard = searchShardOf(term);
        const rows = await searchShards.bulkGet(
          allBuckets.map((bucket): [number, string] => [bucket, shard]),
        );
        return rows.map((row) => row?.terms.get(term));
      }),
    );
    const buckets = allBuckets
      .map((bucket, index) => ({ bucket, index }))
      .filter(({ index }) => exactPostings.every((postings) => postings[index] !== undefined));
    const rows: MessageRow[] = [];
    // A message whose session row does not exist (yet) belongs to an import still being stored.
    const sessionExists = new Map<string, boolean>();
    let batchSize = 1;
    for (let start = 0; start < buckets.length && rows.length < limit;) {
      const batch = buckets.slice(start, start + batchSize);
      start += batch.length;
      const idSets = [
        ...exactPostings.map((postings) => idsOf(batch.map(({ index }) => postings[index]))),
        ...(await Promise.all(
          prefixTerms.map(async (term) => {
            const perBucket = await Promise.all(
              batch.map(({ bucket }) => {
                const [lower, upper] = searchShardRange(bucket, term);
                return searchShards.where('[bucket+shard]').between(lower, upper, true, true).toArray();
              }),
            );
            return idsOf(perBucket.flat().flatMap((row) => postingsStartingWith(row, term)));
          }),
        )),
      ];
      const candidates = intersect(idSets)
        .filter((id) => allowed === null || allowed.has(id))
        .sort((first, second) => second - first);
      // Page through candidates: a few may be rewound rows, which are skipped.
      for (let page = 0; page < candidates.length && rows.length < limit; page += limit) {
        const found = (await readMessageRows(this.#db, candidates.slice(page, page + limit))).filter(
          (row): row is MessageRow => row !== undefined && isSearchable(row),
        );
        const unknown = [...new Set(found.map((row) => row.sessionId))].filter(
          (id) => !sessionExists.has(id),
        );
        if (unknown.length > 0) {
          const sessionRows = await sessions.bulkGet(unknown);
          unknown.forEach((id, index) => sessionExists.set(id, sessionRows[index] !== undefined));
        }
        for (const row of found)
          if (sessionExists.get(row.sessionId) === true && rows.length < limit) rows.push(row);
      }
      const hitsPerBucket = rows.length / start;
      batchSize =
        hitsPerBucket > 0
          ? Math.ceil(((limit - rows.length) / hitsPerBucket) * BATCH_HEADROOM)
          : batchSize * 4;
    }
    return rows;
  }

  /**
   * The nearest searchable message before and after each row in its session. A session's
   * messages are usually consecutive ids (one tab appends at a time), so the ids on either side
   * are fetched in one read and the per-session range query is the fallback.
   */
  async #neighbours(rows: readonly MessageRow[]): Promise<Neighbours[]> {
    const besideIds = rows.flatMap((row) => [row.id! - 1, row.id! + 1]);
    const beside = await readMessageRows(this.#db, besideIds);
    const inSession = this.#db.messages.where('[sessionId+id]');
    return Promise.all(
      rows.map(async (row, index) => {
        const fits = (candidate: MessageRow | undefined): candidate is MessageRow =>
          candidate !== undefined && candidate.sessionId === row.sessionId && isSearchable(candidate);
        const [left, right] = [beside[2 * index], beside[2 * index + 1]];
        // The range reads run only when the id beside is not a searchable message of the session,
        // so the row is not inside a group there: every row they reach lies wholly on that side.
        const [before, after] = await Promise.all([
          fits(left)
            ? left
            : inSession
                .between([row.sessionId, Dexie.minKey], [row.sessionId, row.id!], true, false)
                .reverse()
                .filter(isSearchable)
                .first()
                .then((found) => (found === undefined ? undefined : expandMessageRows([found]).at(-1))),
          fits(right)
            ? right
            : inSession
                .between([row.sessionId, row.id!], [row.sessionId, Dexie.maxKey], false, true)
                .filter(isSearchable)
                .first()
                .then((found) => (found === undefined ? undefined : expandMessageRows([found])[0])),
        ]);
        return {
          before: before ? messagePreview(before.message) : null,
          after: after ? messagePreview(after.message) : null,
        };
      }),
    );
  }
}

interface Neighbours {
  before: string | null;
  after: string | null;
}

const NO_NEIGHBOURS: Neighbours = { before: null, after: null };

function toHit(
  row: MessageRow,
  terms: readonly SearchQueryTerm[],
  titles: ReadonlyMap<string, string | null>,
  neighbours: Neighbours,
): SearchHit {
  const snippet = buildSearchSnippet(messageSearchText(row.message), terms);
  return {
    sessionId: row.sessionId,
    sessionTitle: titles.get(row.sessionId) ?? null,
    messageId: row.id!,
    role: typeof row.message.role === 'string' ? row.message.role : 'unknown',
    createdAt: row.createdAt,
    snippet: snippet.text,
    matches: snippet.matches,
    contextBefore: neighbours.before,
    contextAfter: neighbours.after,
  };
}

/**
 * Rewound or undone rows are hidden everywhere; archived ones stay searchable (Hermes
 * `search_messages`). A group holds only live messages.
 */
const isSearchable = (row: StoredMessageRow): boolean =>
  isMessageGroup(row) || row.active === 1 || row.compacted === 1;

function idsOf(postings: ReadonlyArray<readonly number[] | undefined>): Set<number> {
  const ids = new Set<number>();
  for (const posting of postings) for (const id of posting ?? []) ids.add(id);
  return ids;
}

/** The id lists of a shard's terms that start with `prefix`. */
function postingsStartingWith(row: SearchShardRow, prefix: string): number[][] {
  const postings: number[][] = [];
  for (const [term, ids] of row.terms) if (term.startsWith(prefix)) postings.push(ids);
  return postings;
}

/** Ids present in every set, walking the smallest set. */
function intersect(sets: ReadonlyArray<Set<number>>): number[] {
  const [smallest, ...others] = [...sets].sort((first, second) => first.size - second.size);
  if (smallest === undefined) return [];
  const ids: number[] = [];
  for (const id of smallest) if (others.every((set) => set.has(id))) ids.push(id);
  return ids;
}

/**
 * The terms of some messages, found in steps (`TOKENISE_STEP_CHARS` of text each), so a long
 * message is no longer a step than many short ones.
 */
export class TermPreparation {
  readonly #messages: readonly Message[];
  readonly #termsOfMessage: (message: Message) => Generator<void, string[]>;
  readonly #clock: () => number;
  readonly #prepared: string[][] = [];
  #steps: Generator<void, string[]> | null = null;

  constructor(
    messages: readonly Message[],
    termsOfMessage: (message: Message) => Generator<void, string[]>,
    clock: () => number,
  ) {
    this.#messages = messages;
    this.#termsOfMessage = termsOfMessage;
    this.#clock = clock;
  }

  /**
   * Works until every message has its terms or `budgetMs` has passed, taking at least one step
   * (so each call gets somewhere, whatever the clock says); true once done.
   */
  advance(budgetMs: number): boolean {
    const started = this.#clock();
    while (this.#prepared.length < this.#messages.length) {
      this.#steps ??= this.#termsOfMessage(this.#messages[this.#prepared.length]!);
      const step = this.#steps.next();
      if (step.done) {
        this.#prepared.push(step.value);
        this.#steps = null;
      }
      if (this.#prepared.length < this.#messages.length && this.#clock() - started > budgetMs) return false;
    }
    return true;
  }

  /** Each message's distinct terms; call once `advance` has returned true. */
  terms(): PreparedTerms {
    if (this.#prepared.length < this.#messages.length) throw new Error('The terms are not all found yet.');
    return this.#prepared;
  }
}
