/**
 * What the page shows of the cline strategy — labels, description, host preset and its options —
 * apart from its code (cline.ts), so the page's bundle carries no compaction code.
 */
import { HOST_PRESET } from './host-preset.ts';
import type { StrategyOption, StrategyProfile } from './strategy.ts';

export const AUTO_COMPACT: StrategyOption = {
  key: 'cline.autoCompact',
  label: 'Auto Compact',
  help: 'Instead of dropping messages, have the model summarise everything after the first exchange (1 = on).',
  defaultValue: 0,
  min: 0,
  max: 1,
  step: 1,
  unit: 'count',
};

export const CLINE_PROFILE: StrategyProfile = {
  name: 'cline',
  label: 'Cline',
  summary:
    'Cline: near the window, replace re-read files with a notice; if that saves under 30%, drop half the history after the first exchange.',
  description:
    "Modelled on Cline's context management (cline/cline, context-window-utils.ts and ContextManager.ts) as of 2026-10. " +
    'It fires at maxAllowedSize: the window minus 27,000 / 30,000 / 40,000 tokens for 64K / 128K / 200K windows, ' +
    'otherwise the larger of the window minus 40,000 and 80% of it. First, older copies of every file read (or written ' +
    'whole) again are replaced by a duplicate-read notice; if that saves at least 30% of the characters, nothing else ' +
    'happens. Otherwise the first user/assistant exchange is kept and half of the messages after it are dropped from ' +
    'the front (three quarters when the context is more than twice the limit), cut at a tool-group boundary, with a ' +
    'truncation notice in their place; nothing is summarised. With the Auto Compact option the same model instead ' +
    'summarises everything after the first exchange. Notices and the summary prompt are our own words.',
  preset: HOST_PRESET,
  usesHermesSettings: false,
  options: [AUTO_COMPACT],
  regionLabels: { head: 'first user/assistant exchange', middle: 'truncated', tail: 'kept' },
};
