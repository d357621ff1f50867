// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { INSPECTOR_TABS } from '#ui/inspector/inspector-tabs.ts';
import { isTypingTarget, SHORTCUTS } from '#ui/keyboard-shortcuts.ts';

describe('SHORTCUTS', () => {
  it('lists the tab keys the app has: 1 to the number of inspector tabs, each named in order', () => {
    const tabs = SHORTCUTS.find((shortcut) => shortcut.keys[0] === '1')!;
    expect(tabs.keys).toEqual(['1', '…', String(INSPECTOR_TABS.length)]);
    expect(tabs.description).toContain(INSPECTOR_TABS.map((tab) => tab.label).join(', '));
  });
});

describe('isTypingTarget', () => {
  it('is true for fields, false for anything else (a boolean even where isContentEditable is missing)', () => {
    for (const tag of ['input', 'textarea', 'select'])
      expect(isTypingTarget(document.createElement(tag))).toBe(true);
    expect(isTypingTarget(document.createElement('button'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
