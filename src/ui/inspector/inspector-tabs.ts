import type { Component } from 'svelte';
import ChatTab from '../chat/ChatTab.svelte';
import CompareTabLoader from '../compare/CompareTabLoader.svelte';
import PlanTab from '../plan/PlanTab.svelte';
import ProviderTab from '../provider/ProviderTab.svelte';
import ReplayTab from '../replay/ReplayTab.svelte';
import SessionsTab from '../sessions/SessionsTab.svelte';
import UsageTab from '../usage/UsageTab.svelte';

/**
 * One tab of the inspector. Tabs read the app state from context, so a new panel is one
 * entry here: its position is also its keyboard shortcut (1–9) and its test id is
 * `tab-<id>`. Chat, Sessions and Usage are added the same way.
 */
export interface InspectorTab {
  readonly id: string;
  readonly label: string;
  readonly component: Component;
  /** Shown as the tab's tooltip and in the shortcut help. */
  readonly description: string;
}

export const INSPECTOR_TABS: readonly InspectorTab[] = [
  {
    id: 'plan',
    label: 'Plan',
    component: PlanTab,
    description: 'Settings and why the cut falls where it does',
  },
  { id: 'replay', label: 'Replay', component: ReplayTab, description: 'Run the four compression phases' },
  {
    id: 'provider',
    label: 'Provider',
    component: ProviderTab,
    description: 'API key, base URL, models, caching',
  },
  {
    id: 'sessions',
    label: 'Sessions',
    component: SessionsTab,
    description: 'Stored conversations: lineage, search, export',
  },
  {
    id: 'usage',
    label: 'Usage',
    component: UsageTab,
    description: 'Tokens by bucket, cache hit rate and cost per turn',
  },
  { id: 'chat', label: 'Chat', component: ChatTab, description: 'Chat with compression in the loop' },
  // Last, so the shortcuts of the tabs before it (3 = Provider…) stay as they were.
  {
    id: 'compare',
    label: 'Compare',
    component: CompareTabLoader,
    description: 'Strategies side by side: kept, lost, cost, and how often each fires',
  },
];
