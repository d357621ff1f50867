import {
  AUTO_FOCUS_MAX_CHARS,
  AUTO_FOCUS_MAX_TURNS,
  AUTO_FOCUS_TURN_MAX_CHARS,
} from '../../../core/compression/auto-focus-topic.ts';
import { NO_PROVIDER_COOLDOWN_SECONDS } from '../../../core/compression/classify-summary-failure.ts';
import {
  FALLBACK_SUMMARY_MAX_CHARS,
  FALLBACK_TURN_MAX_CHARS,
} from '../../../core/compression/fallback-summary.ts';
import { ACTIVE_TASK_MAX_CHARS } from '../../../core/compression/ground-task-snapshot.ts';
import {
  COMPRESSED_SUMMARY_METADATA_KEY,
  HISTORICAL_IN_PROGRESS_HEADING,
  HISTORICAL_PENDING_ASKS_HEADING,
  HISTORICAL_REMAINING_WORK_HEADING,
  HISTORICAL_TASK_HEADING,
  LEGACY_SUMMARY_PREFIX,
  MERGED_PRIOR_CONTEXT_HEADER,
  MERGED_SUMMARY_DELIMITER,
  PRUNED_TOOL_PLACEHOLDER,
  SUMMARY_END_MARKER,
  summaryPrefix,
} from '../../../core/compression/markers.ts';
import {
  SUMMARY_CONTENT_HEAD_CHARS,
  SUMMARY_CONTENT_MAX_CHARS,
  SUMMARY_CONTENT_TAIL_CHARS,
  SUMMARY_TOOL_ARGS_HEAD_CHARS,
  SUMMARY_TOOL_ARGS_MAX_CHARS,
} from '../../../core/compression/serialize-for-summary.ts';
import { MIN_SUMMARY_TOKENS, SUMMARY_RATIO } from '../../../core/config/compute-summary-budget.ts';
import {
  MINIMUM_CONTEXT_TOKENS,
  SWALLOWED_WINDOW_TRIGGER_RATIO,
} from '../../../core/config/derive-thresholds.ts';
import type { Preset } from '../../../core/presets/preset.ts';
import { CHARS_PER_TOKEN } from '../../../core/tokens/estimate-tokens-rough.ts';
import { IMAGE_CHAR_EQUIVALENT } from '../../../core/tokens/message-budget-tokens.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

/** The compressor's module constants as Hermes names them, from the code that uses them. */
function compressorConstants(preset: Preset): Record<string, unknown> {
  const switches = preset;
  const shared: Record<string, unknown> = {
    SUMMARY_PREFIX: summaryPrefix(preset),
    LEGACY_SUMMARY_PREFIX,
    _PRUNED_TOOL_PLACEHOLDER: PRUNED_TOOL_PLACEHOLDER,
    _MIN_SUMMARY_TOKENS: MIN_SUMMARY_TOKENS,
    _SUMMARY_RATIO: SUMMARY_RATIO,
    _SUMMARY_TOKENS_CEILING: switches.thresholds.summaryTokensCeiling,
    _CHARS_PER_TOKEN: CHARS_PER_TOKEN,
    _SUMMARY_FAILURE_COOLDOWN_SECONDS: NO_PROVIDER_COOLDOWN_SECONDS,
    'ContextCompressor._CONTENT_MAX': SUMMARY_CONTENT_MAX_CHARS,
    'ContextCompressor._CONTENT_HEAD': SUMMARY_CONTENT_HEAD_CHARS,
    'ContextCompressor._CONTENT_TAIL': SUMMARY_CONTENT_TAIL_CHARS,
    'ContextCompressor._TOOL_ARGS_MAX': SUMMARY_TOOL_ARGS_MAX_CHARS,
    'ContextCompressor._TOOL_ARGS_HEAD': SUMMARY_TOOL_ARGS_HEAD_CHARS,
    MINIMUM_CONTEXT_LENGTH: MINIMUM_CONTEXT_TOKENS,
    CONTEXT_PROBE_TIERS: [...preset.recovery.contextProbeTiers],
  };
  // The end marker, merging, images, fallback and auto-focus constants arrived together with
  // the marked standalone summary; a generation without it has none of them.
  if (preset.assembly.standaloneSummary === 'bare') return shared;
  const floor = switches.thresholds.smallWindowFloor;
  return {
    ...shared,
    _SUMMARY_END_MARKER: SUMMARY_END_MARKER,
    _MERGED_PRIOR_CONTEXT_HEADER: MERGED_PRIOR_CONTEXT_HEADER,
    _MERGED_SUMMARY_DELIMITER: MERGED_SUMMARY_DELIMITER,
    _IMAGE_TOKEN_ESTIMATE: IMAGE_CHAR_EQUIVALENT / CHARS_PER_TOKEN,
    _FALLBACK_SUMMARY_MAX_CHARS: FALLBACK_SUMMARY_MAX_CHARS,
    _FALLBACK_TURN_MAX_CHARS: FALLBACK_TURN_MAX_CHARS,
    _AUTO_FOCUS_MAX_TURNS: AUTO_FOCUS_MAX_TURNS,
    _AUTO_FOCUS_TURN_MAX_CHARS: AUTO_FOCUS_TURN_MAX_CHARS,
    _AUTO_FOCUS_MAX_CHARS: AUTO_FOCUS_MAX_CHARS,
    _ACTIVE_TASK_MAX_CHARS: ACTIVE_TASK_MAX_CHARS,
    _MAX_TAIL_MESSAGE_FLOOR: switches.boundaries.maxTailMessageFloor,
    _SMALL_CTX_WINDOW_LIMIT: floor?.windowLimitTokens,
    _SMALL_CTX_THRESHOLD_PERCENT: floor?.minPercent,
    HISTORICAL_TASK_HEADING,
    HISTORICAL_IN_PROGRESS_HEADING,
    HISTORICAL_PENDING_ASKS_HEADING,
    HISTORICAL_REMAINING_WORK_HEADING,
    COMPRESSED_SUMMARY_METADATA_KEY,
    'ContextCompressor._MIN_CTX_TRIGGER_RATIO': SWALLOWED_WINDOW_TRIGGER_RATIO,
  };
}

export const adapter: VectorAdapter = {
  inputKeys: () => [],
  run(testCase, preset) {
    switch (testCase.name) {
      case 'context_compressor_constants':
        return compressorConstants(preset);
      case 'session_schema_version':
        return preset.sessionSchemaVersion;
      default:
        throw new Error(`no constants known for case ${testCase.name}`);
    }
  },
};
