import { describe, expect, it } from 'vitest';
import type { Message } from '#core/transcript/message.ts';
import { WorkspaceState } from '#state/workspace-state.svelte.ts';

const messages: Message[] = [
  { role: 'user', content: 'run pytest' },
  { role: 'assistant', content: 'ok' },
  { role: 'tool', content: 'pytest: 3 passed' },
  { role: 'assistant', content: 'done' },
  { role: 'user', content: 'pytest again' },
];

describe('WorkspaceState find', () => {
  it('says "n of N" and moves through the matches, wrapping around', () => {
    const workspace = new WorkspaceState();
    workspace.searchQuery = 'PyTest';
    workspace.findNext(messages);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['1 of 3', 0]);
    workspace.findNext(messages);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['2 of 3', 2]);
    workspace.findNext(messages);
    workspace.findNext(messages);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['1 of 3', 0]);
    expect(workspace.matches).toEqual([0, 2, 4]);
    expect(workspace.isMatch(2)).toBe(true);
    expect(workspace.isMatch(1)).toBe(false);
    expect(workspace.matchedQuery).toBe('PyTest');
  });

  it('goes backwards from the selected message', () => {
    const workspace = new WorkspaceState();
    workspace.searchQuery = 'pytest';
    workspace.selectedIndex = 3;
    workspace.findPrevious(messages);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['2 of 3', 2]);
    workspace.findPrevious(messages);
    workspace.findPrevious(messages);
    expect([workspace.searchMessage, workspace.selectedIndex]).toEqual(['3 of 3', 4]);
  });

  it('starts after a selected message that is not a match', () => {
    const workspace = new WorkspaceState();
    workspace.selectedIndex = 1;
    workspace.searchQuery = 'pytest';
    workspace.findNext(messages);
    expect(workspace.selectedIndex).toBe(2);
  });

  it('forgets the matches when the query is edited, and says when nothing matches', () => {
    const workspace = new WorkspaceState();
    workspace.searchQuery = 'pytest';
    workspace.findNext(messages);
    workspace.searchQuery = 'pytes';
    expect([workspace.searchMessage, workspace.matches, workspace.matchedQuery]).toEqual(['', [], '']);
    workspace.searchQuery = 'nothing like it';
    workspace.findNext(messages);
    expect(workspace.searchMessage).toBe('No match');
    expect(workspace.selectedIndex).toBe(0);
  });

  it('searches again when the transcript changes', () => {
    const workspace = new WorkspaceState();
    workspace.searchQuery = 'pytest';
    workspace.findNext(messages);
    // Selected #0; the shorter transcript has two matches, and the next one is #2.
    workspace.findNext(messages.slice(0, 3));
    expect([workspace.searchMessage, workspace.matches]).toEqual(['2 of 2', [0, 2]]);
  });
});
