/**
 * What the page shows of Hermes' two strategies — labels, descriptions and their presets — apart
 * from their code (hermes.ts), so the page's bundle carries no compaction code.
 */
import type { StrategyName } from './strategy-names.ts';
import { HERMES_2026_04 } from '../presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '../presets/hermes-2026-07.ts';
import type { Preset } from '../presets/preset.ts';
import type { StrategyProfile } from './strategy.ts';

interface HermesStrategyFacts {
  readonly name: StrategyName;
  readonly label: string;
  readonly summary: string;
  readonly description: string;
}

/** What the page shows of one Hermes generation's strategy (no code). */
function hermesProfile(preset: Preset, facts: HermesStrategyFacts): StrategyProfile {
  return {
    ...facts,
    preset,
    usesHermesSettings: true,
    options: [],
    regionLabels: { head: 'protected head', middle: 'middle to summarise', tail: 'protected tail' },
  };
}

export const HERMES_2026_04_PROFILE: StrategyProfile = hermesProfile(HERMES_2026_04, {
  name: 'hermes-2026-04',
  label: 'Hermes (2026-04)',
  summary:
    'Hermes Agent at 3cb43df: 50% trigger, tail of 20% of the threshold, handoff summary of the middle.',
  description:
    'Hermes Agent as of commit 3cb43df (2026-04-24), the generation its original documents describe. ' +
    'Compaction fires at 50% of the window (at least 64,000 tokens). Old tool outputs outside the protected ' +
    'tail become one-line summaries, duplicates back-references. The first protect_first_n messages (system ' +
    'prompt included) stay; the tail keeps 20% of the threshold in tokens, aligned to tool groups, with the ' +
    'last user message; everything between is summarised into a structured handoff ("Active Task", Goal, ' +
    'Completed Actions…). A call whose result was summarised away gets a stub result. Every compaction ' +
    'starts a continuation session.',
});

export const HERMES_2026_07_PROFILE: StrategyProfile = hermesProfile(HERMES_2026_07, {
  name: 'hermes-2026-07',
  label: 'Hermes (2026-07)',
  summary: 'Hermes Agent at 9eb7b1a6: 75% floor under 512K, head decay, "Historical …" handoff, anti-thrash.',
  description:
    'Hermes Agent as of commit 9eb7b1a6 (2026-07-22). The 50% trigger is raised to 75% for windows under ' +
    '512K, after reserving max_tokens. The head is the system prompt plus protect_first_n, which decays to ' +
    'nothing after the first compaction; the tail is token-budgeted with a floor of up to 8 messages and keeps ' +
    'the latest user ask and assistant reply. The summary uses "Historical …" sections grounded in the real ' +
    'last user turn; a failed summary falls back to a deterministic handoff; orphaned calls are stripped; two ' +
    'ineffective compactions stop automatic compaction.',
});
