// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { DeletePlan } from '#state/sessions-state.svelte.ts';
import ConfirmDeleteDialog from '#ui/sessions/ConfirmDeleteDialog.svelte';

const plan: DeletePlan = {
  scope: 'segment',
  sessionIds: ['middle'],
  messageCount: 12,
  consequences: [
    'Deletes segment #2 with 12 messages.',
    'The chain splits in two.',
    'This cannot be undone.',
  ],
};

describe('ConfirmDeleteDialog', () => {
  it('says what will happen and deletes only on confirmation', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    const { getByTestId, getByRole } = render(ConfirmDeleteDialog, {
      props: { plan, subject: 'segment #2 of “Fix login”', onConfirm, onCancel },
    });
    expect(getByRole('heading').textContent).toBe('Delete segment #2 of “Fix login”?');
    expect(getByTestId('delete-dialog').textContent).toContain('The chain splits in two.');
    await fireEvent.click(getByTestId('delete-cancel'));
    expect(onCancel).toHaveBeenCalledOnce();
    expect(onConfirm).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('delete-confirm'));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('stays empty without a plan', () => {
    const { getByTestId } = render(ConfirmDeleteDialog, {
      props: { plan: null, subject: '', onConfirm: () => {}, onCancel: () => {} },
    });
    expect(getByTestId('delete-dialog').textContent?.trim()).toBe('');
  });
});
