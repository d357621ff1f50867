// @vitest-environment jsdom
import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { sessionsPanelContext } from '#state/sessions-context.ts';
import type { SessionsState } from '#state/sessions-state.svelte.ts';
import type { UsageState } from '#state/usage-state.svelte.ts';
import UsageTab from '#ui/usage/UsageTab.svelte';

describe('UsageTab', () => {
  it('explains where usage comes from before there is any', () => {
    const usage = { candidates: [], conversationId: null, view: null, loaded: true } as unknown as UsageState;
    const { getByTestId, queryByTestId } = render(UsageTab, {
      context: sessionsPanelContext({} as SessionsState, usage),
    });
    expect(getByTestId('usage-empty').textContent).toContain(
      'Usage appears here once you chat with a provider',
    );
    expect(queryByTestId('usage-chart')).toBeNull();
  });
});
