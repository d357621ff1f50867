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
  /** A request for the list to scroll; `serial` makes a second jump to the same row count. */
  jumpRequest = $state.raw<{ index: number; serial: number } | null>(null);
  searchQuery = $state('');
  searchMessage = $state('');
  #serial = 0;

  selectTab(id: string): void {
    this.activeTab = id;
  }

  jumpTo(index: number): void {
    this.selectedIndex = index;
    this.jumpRequest = { index, serial: ++this.#serial };
  }

  /**
   * Finds the next message matching the search box after the selected one, and jumps there. The
   * worker searches its copy of the transcript.
   */
  async findNext(view: TranscriptView): Promise<void> {
    const query = this.searchQuery.trim();
    if (query === '') {
      this.searchMessage = '';
      return;
    }
    const index = await view.find(query, this.selectedIndex ?? -1);
    if (query !== this.searchQuery.trim()) return;
    if (index < 0) {
      this.searchMessage = 'No match';
      return;
    }
    this.searchMessage = `#${index}`;
    this.jumpTo(index);
  }

  /** A new transcript: nothing in the old one is selected any more. */
  clearSelection(): void {
    this.selectedIndex = null;
    this.jumpRequest = null;
    this.searchMessage = '';
  }
}
