import type { Preset } from '../core/presets/preset.ts';
import type { CompactionEpoch } from '../core/sessions/compaction-epoch.ts';
import { compactionLedgerRows, type CompactionLedgerTable } from '../core/usage/compaction-ledger-rows.ts';
import { priceUsageTurn } from '../core/usage/price-usage-turn.ts';
import { buildUsageSeries, type UsageSeries } from '../core/usage/usage-series.ts';
import { lineageUsageTotals, type LineageUsageTotals } from '../core/usage/usage-totals.ts';
import type { UsageTurn } from '../core/usage/usage-turn.ts';
import type { SessionRepository } from '../io/db/session-repository.ts';
import type { SessionRow } from '../io/db/session-row.ts';
import type { UsageEventRow } from '../io/db/usage-event-row.ts';
import type { ConversationEntry } from './conversation-entry.ts';
import { LiveQueryState } from './live-query.svelte.ts';

export type UsageRepository = Pick<
  SessionRepository,
  'lineageRootToTip' | 'listUsageEvents' | 'listConversationCompactions'
>;

export interface UsageStateDependencies {
  repository: UsageRepository;
  /** The session list (the sessions panel's), to offer the conversations that have usage. */
  sessions: { readonly conversations: readonly ConversationEntry[] };
  preset: () => Preset;
}

/** Everything the usage panel draws for one conversation. */
export interface UsageView {
  /** The conversation's chain, root → tip. */
  chain: SessionRow[];
  /** Every recorded request, priced, in chain order. */
  turns: UsageTurn[];
  series: UsageSeries;
  totals: LineageUsageTotals;
  /** One row per compaction of the conversation and its chain, and per billed attempt not applied. */
  ledger: CompactionLedgerTable;
}

interface StoredUsage {
  chain: SessionRow[];
  events: UsageEventRow[];
  epochs: CompactionEpoch[];
}

/**
 * The usage panel: the cost and cache ledger of one conversation (peers.md §4 item 6). Usage
 * events are read live from IndexedDB (the chat records one per provider response), priced with
 * the built-in price table, and turned into per-turn series and lineage totals by pure core
 * functions. Shows the conversation picked with `show`, else the newest one that has usage.
 */
export class UsageState {
  readonly #deps: UsageStateDependencies;
  #requestedId = $state<string | null>(null);

  /** Conversations with at least one recorded request, newest first. */
  readonly #candidates = $derived.by(() =>
    this.#deps.sessions.conversations.filter((conversation) => conversation.apiCallCount > 0),
  );

  readonly #rootId = $derived.by((): string | null => {
    const requested = this.#requestedId;
    const conversations = this.#deps.sessions.conversations;
    if (requested !== null) {
      const match = conversations.find(
        (conversation) =>
          conversation.id === requested ||
          conversation.segments.some((row) => row.id === requested) ||
          conversation.side.some((row) => row.id === requested),
      );
      if (match) return match.id;
    }
    return this.#candidates[0]?.id ?? null;
  });

  readonly #stored = $derived.by(() => {
    const rootId = this.#rootId;
    if (rootId === null) return null;
    return new LiveQueryState<StoredUsage | null>(() => this.#load(rootId), null);
  });

  readonly #view = $derived.by((): UsageView | null => {
    const stored = this.#stored?.current ?? null;
    return stored === null ? null : buildUsageView(stored, this.#deps.preset());
  });

  constructor(deps: UsageStateDependencies) {
    this.#deps = deps;
  }

  get candidates(): readonly ConversationEntry[] {
    return this.#candidates;
  }

  /** The root id of the conversation shown, null when no conversation has usage yet. */
  get conversationId(): string | null {
    return this.#rootId;
  }

  get view(): UsageView | null {
    return this.#view;
  }

  /** True once the shown conversation's usage has been read (or there is nothing to read). */
  get loaded(): boolean {
    return this.#stored === null || this.#stored.loaded;
  }

  /** Shows the conversation `sessionId` belongs to. */
  show(sessionId: string | null): void {
    this.#requestedId = sessionId;
  }

  async #load(rootId: string): Promise<StoredUsage> {
    const chain = await this.#deps.repository.lineageRootToTip(rootId, this.#deps.preset());
    const [events, epochs] = await Promise.all([
      this.#deps.repository.listUsageEvents(chain.map((row) => row.id)),
      this.#deps.repository.listConversationCompactions(rootId),
    ]);
    return { chain, events, epochs };
  }
}

/** Prices each event on its session's billing route and builds the series and totals. */
export function buildUsageView(stored: StoredUsage, preset: Preset): UsageView {
  const sessionsById = new Map(stored.chain.map((row) => [row.id, row]));
  const chainIds = stored.chain.map((row) => row.id);
  const priced = stored.events.map((event) => {
    const session = sessionsById.get(event.sessionId);
    return priceUsageTurn(
      event,
      { provider: session?.provider ?? '', baseUrl: session?.baseUrl ?? '' },
      preset,
    );
  });
  const series = buildUsageSeries(priced, chainIds);
  // The series put the turns in chain order; keep that order for the table.
  const order = new Map(chainIds.map((id, index) => [id, index]));
  const turns = priced
    .map((turn, index) => ({ turn, index }))
    .sort(
      (first, second) =>
        (order.get(first.turn.sessionId) ?? chainIds.length) -
          (order.get(second.turn.sessionId) ?? chainIds.length) || first.index - second.index,
    )
    .map(({ turn }) => turn);
  return {
    chain: stored.chain,
    turns,
    series,
    totals: lineageUsageTotals(priced, chainIds),
    ledger: compactionLedgerRows(stored.epochs, priced),
  };
}
