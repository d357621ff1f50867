import type { MapZoom } from '../core/lab/map-axis.ts';
import type { TranscriptView } from './transcript-view.ts';

/**
 * What the workspace shows, independent of the data: the inspector tab, open overlays, the
 * selected message and scroll requests for the message list.
 */
export class WorkspaceState {
  activeTab = $state('plan');
  helpOpen = $state(false);
  pasteOpen = $state(false);
  selectedIndex = $state<number | null>(null);
  /** The message row under the pointer, highlighted on the map. */
  hoveredIndex = $state<number | null>(null);
  /** How the map scales its axis (`mapAxis`); `auto` fits a short transcript. */
  mapZoom = $state<MapZoom>('auto');
  /** A request for the list to scroll; `serial` makes a second jump to the same row count. */
  jumpRequest = $state.raw<{ index: number; serial: number } | null>(null);
  searchMessage = $state('');
  #searchQuery = $state('');
  /** The query the matches belong to (highlighted in the list and the detail); '' before a search. */
  #matchedQuery = $state('');
  #matches = $state.raw<readonly number[]>([]);
  #matchSet = $derived(new Set(this.#matches));
  #matchedView: TranscriptView | null = null;
  #serial = 0;

  /** The find box's text. Editing it forgets the last search's matches until the next search. */
  get searchQuery(): string {
    return this.#searchQuery;
  }

  set searchQuery(query: string) {
    this.#searchQuery = query;
    if (query.trim() !== this.#matchedQuery) this.#forgetMatches();
  }

  /** The searched text, for highlighting; '' when there are no matches to show. */
  get matchedQuery(): string {
    return this.#matchedQuery;
  }

  /** Indices of every message the last search matched, in order. */
  get matches(): readonly number[] {
    return this.#matches;
  }

  isMatch(index: number): boolean {
    return this.#matchSet.has(index);
  }

  selectTab(id: string): void {
    this.activeTab = id;
  }

  jumpTo(index: number): void {
    this.selectedIndex = index;
    this.jumpRequest = { index, serial: ++this.#serial };
  }

  /**
   * Jumps to the next message matching the find box after the selected one (wrapping): "3 of 12".
   * The worker searches its copy of the transcript; the matches are kept until the query or the
   * transcript changes.
   */
  findNext(view: TranscriptView): Promise<void> {
    return this.#find(view, 1);
  }

  /** The same backwards, before the selected message. */
  findPrevious(view: TranscriptView): Promise<void> {
    return this.#find(view, -1);
  }

  async #find(view: TranscriptView, direction: 1 | -1): Promise<void> {
    const query = this.#searchQuery.trim();
    if (query === '') {
      this.#forgetMatches();
      return;
    }
    if (query !== this.#matchedQuery || view !== this.#matchedView) {
      const matches = await view.findAll(query);
      // Typed on, or another transcript opened, while the worker searched: that search answers.
      if (query !== this.#searchQuery.trim()) return;
      this.#matches = matches;
      this.#matchedQuery = query;
      this.#matchedView = view;
    }
    const matches = this.#matches;
    if (matches.length === 0) {
      this.searchMessage = 'No match';
      return;
    }
    const position = neighbourPosition(
      matches,
      this.selectedIndex ?? (direction === 1 ? -1 : Infinity),
      direction,
    );
    this.searchMessage = `${position + 1} of ${matches.length}`;
    this.jumpTo(matches[position]!);
  }

  #forgetMatches(): void {
    this.#matches = [];
    this.#matchedQuery = '';
    this.#matchedView = null;
    this.searchMessage = '';
  }

  /** A new transcript: nothing in the old one is selected any more. */
  clearSelection(): void {
    this.selectedIndex = null;
    this.hoveredIndex = null;
    this.jumpRequest = null;
    this.#forgetMatches();
  }
}

/** The position in sorted `matches` of the first one after `from` (or before it, backwards), wrapping around. */
function neighbourPosition(matches: readonly number[], from: number, direction: 1 | -1): number {
  // The first position whose index is > from (binary search).
  let low = 0;
  let high = matches.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (matches[middle]! > from) high = middle;
    else low = middle + 1;
  }
  if (direction === 1) return low < matches.length ? low : 0;
  // Backwards: the last index < from.
  const before = matches[low - 1] === from ? low - 2 : low - 1;
  return before >= 0 ? before : matches.length - 1;
}
