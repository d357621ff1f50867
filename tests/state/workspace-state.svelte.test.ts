import { describe, expect, it } from 'vitest';
import { findMessages } from '#core/lab/find-message.ts';
import type { Message } from '#core/transcript/message.ts';
import type { TranscriptView } from '#state/transcript-view.ts';
import { WorkspaceState } from '#state/workspace-state.svelte.ts';

const messages: Message[] = [
  { role: 'user', content: 'run pytest' },
  { role: 'assistant', content: 'ok' },
  { role: 'tool', content: 'pytest: 3 passed' },
  { role: 'assistant', content: 'done' },
  { role: 'user', content: 'pytest again' },
];

/** The find part of a view of these messages, searched as the worker does (`findMessages`). */
const viewOf = (list: readonly Message[]): TranscriptView =>
  ({
    count: list.length,
    findAll: async (query: string) => findMessages(list, query),
  }) as unknown as TranscriptView;
const messagesView = viewOf(messages);

describe('WorkspaceState find', () => {
  it('says "n of N" and moves through the matches, wrapping around', async () => {
    const workspace = new WorkspaceState();
    workspace.searchQuery = 'PyTest';
    await workspace.findNext(messagesView);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['1 of 3', 0]);
    await workspace.findNext(messagesView);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['2 of 3', 2]);
    await workspace.findNext(messagesView);
    await workspace.findNext(messagesView);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['1 of 3', 0]);
    expect(workspace.matches).toEqual([0, 2, 4]);
    expect(workspace.isMatch(2)).toBe(true);
    expect(workspace.isMatch(1)).toBe(false);
    expect(workspace.matchedQuery).toBe('PyTest');
  });

  it('goes backwards from the selected message', async () => {
    const workspace = new WorkspaceState();
    workspace.searchQuery = 'pytest';
    workspace.selectedIndex = 3;
    await workspace.findPrevious(messagesView);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['2 of 3', 2]);
    await workspace.findPrevious(messagesView);
    await workspace.findPrevious(messagesView);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['3 of 3', 4]);
  });

  it('starts after a selected message that is not a match', async () => {
    const workspace = new WorkspaceState();
    workspace.selectedIndex = 1;
    workspace.searchQuery = 'pytest';
    await workspace.findNext(messagesView);
    expect(workspace.selectedIndex).toBe(2);
  });

  it('forgets the matches when the query is edited, and says when nothing matches', async () => {
    const workspace = new WorkspaceState();
    workspace.searchQuery = 'pytest';
    await workspace.findNext(messagesView);
    workspace.searchQuery = 'pytes';
    expect([workspace.searchMessage, workspace.matches, workspace.matchedQuery]).toEqual(['', [], '']);
    workspace.searchQuery = 'nothing like it';
    await workspace.findNext(messagesView);
    expect(workspace.searchMessage).toBe('No match');
    expect(workspace.selectedIndex).toBe(0);
  });

  it('searches again when the transcript changes', async () => {
    const workspace = new WorkspaceState();
    workspace.searchQuery = 'pytest';
    await workspace.findNext(messagesView);
    // Selected #0; the shorter transcript has two matches, and the next one is #2.
    await workspace.findNext(viewOf(messages.slice(0, 3)));
    expect([workspace.searchMessage, workspace.matches]).toEqual(['2 of 2', [0, 2]]);
  });
});
