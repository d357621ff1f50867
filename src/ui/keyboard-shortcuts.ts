import { INSPECTOR_TABS } from './inspector/inspector-tabs.ts';

/** The keyboard shortcuts, as the help overlay lists them (App.svelte implements them). */
export interface Shortcut {
  readonly keys: readonly string[];
  readonly description: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['i'], description: 'Import a transcript file' },
  { keys: ['v'], description: 'Paste a transcript' },
  { keys: ['r'], description: 'Run the replay: all four compression phases' },
  { keys: ['n', 'p'], description: 'Next / previous replay phase' },
  {
    keys: ['1', '…', String(INSPECTOR_TABS.length)],
    description: `Inspector tabs, in order (${INSPECTOR_TABS.map((tab) => tab.label).join(', ')})`,
  },
  { keys: ['t'], description: 'Theme: auto → light → dark' },
  { keys: ['/'], description: 'Focus the message search, or the input of the open tab (chat)' },
  { keys: ['?'], description: 'Show this help' },
  { keys: ['Esc'], description: 'Close a dialog or the message detail' },
];

/** Shortcuts never fire while the user types into a field. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const element = target as HTMLElement;
  const tag = element.tagName.toLowerCase();
  return tag === 'input' || tag === 'textarea' || tag === 'select' || element.isContentEditable === true;
}
