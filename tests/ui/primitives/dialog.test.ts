// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { createRawSnippet } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import Dialog from '#ui/primitives/Dialog.svelte';

const body = createRawSnippet(() => ({ render: () => '<p>The body.</p>' }));
const actions = createRawSnippet(() => ({ render: () => '<button type="button">Done</button>' }));

describe('Dialog', () => {
  it('shows its title, content and actions while open, labelled by its title', () => {
    const onOpen = vi.fn();
    const { getByTestId, getByRole } = render(Dialog, {
      props: {
        open: true,
        onClose: () => {},
        title: 'Paste a transcript',
        testid: 'paste-dialog',
        onOpen,
        children: body,
        actions,
      },
    });
    const dialog = getByTestId('paste-dialog');
    expect(dialog.hasAttribute('open')).toBe(true);
    expect(getByRole('heading').textContent).toBe('Paste a transcript');
    expect(dialog.getAttribute('aria-labelledby')).toBe('paste-dialog-title');
    expect(dialog.textContent).toContain('The body.');
    expect(dialog.querySelector('.actions button')?.textContent).toBe('Done');
    expect(onOpen).toHaveBeenCalledOnce();
  });

  it('holds nothing while closed', () => {
    const { getByTestId } = render(Dialog, {
      props: { open: false, onClose: () => {}, title: 'Delete?', testid: 'delete-dialog', children: body },
    });
    expect(getByTestId('delete-dialog').textContent?.trim()).toBe('');
  });

  it('tells its owner when the user closes it (Escape, a dialog-form button)', async () => {
    const onClose = vi.fn();
    const { getByTestId } = render(Dialog, {
      props: { open: true, onClose, title: 'Keyboard shortcuts', testid: 'help-overlay', children: body },
    });
    await fireEvent(getByTestId('help-overlay'), new Event('close'));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('does not report a close its owner asked for', async () => {
    const onClose = vi.fn();
    const { getByTestId, rerender } = render(Dialog, {
      props: { open: true, onClose, title: 'Keyboard shortcuts', testid: 'help-overlay', children: body },
    });
    await rerender({
      open: false,
      onClose,
      title: 'Keyboard shortcuts',
      testid: 'help-overlay',
      children: body,
    });
    await fireEvent(getByTestId('help-overlay'), new Event('close'));
    expect(onClose).not.toHaveBeenCalled();
  });
});
