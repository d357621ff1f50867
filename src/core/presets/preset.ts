import { HERMES_2026_04 } from './hermes-2026-04.ts';
import { HERMES_2026_07 } from './hermes-2026-07.ts';
import type { PriceEntry } from '../usage/price-table.ts';
import type { PresetName } from './preset-name.ts';

/**
 * Everything that differs between the Hermes generations Context Lab reproduces, as plain data.
 * Phase functions read the switch they need and pick a variant; no phase is copied per preset.
 * Grouped by phase so each engineer extends only their group.
 */
export interface Preset {
  readonly name: PresetName;
  /** The upstream code this preset reproduces. */
  readonly upstream: UpstreamVersion;
  /** Texts the model reads: the handoff prefix and the system-prompt note after a compaction. */
  readonly markers: MarkerTexts;
  /** The price snapshot this generation shipped, keyed `provider\u0000model`. */
  readonly prices: ReadonlyMap<string, PriceEntry>;
  /** `schema_version` of this generation's own session store (`~/.hermes/state.db`). */
  readonly sessionSchemaVersion: number;
  readonly estimation: EstimationSwitches;
  readonly thresholds: ThresholdSwitches;
  readonly pruning: PruningSwitches;
  readonly boundaries: BoundarySwitches;
  readonly summary: SummarySwitches;
  readonly assembly: AssemblySwitches;
  readonly gates: GateSwitches;
  readonly loop: LoopSwitches;
  readonly recovery: RecoverySwitches;
  readonly errors: ErrorSwitches;
  readonly caching: CachingSwitches;
  readonly usage: UsageSwitches;
  readonly persistence: PersistenceSwitches;
  readonly sessions: SessionSwitches;
}

export interface MarkerTexts {
  readonly summaryPrefix: string;
  readonly compressionNote: string;
}

export interface UpstreamVersion {
  /** Hermes Agent commit, short hash. */
  readonly commit: string;
  /** Commit date, `YYYY-MM-DD`. */
  readonly date: string;
}

export interface EstimationSwitches {
  /** `full-repr`: `len(str(msg))` with base64 included; `image-stripped-repr`: shadow copy + 1500/image. */
  readonly messageSize: 'full-repr' | 'image-stripped-repr';
  /** `once`: (system + messages + str(tools) + 3) // 4; `per-term`: each term rounded on its own. */
  readonly requestRounding: 'once' | 'per-term';
  /** `repr`: `len(str(tools))`; `schema-fields`: name + description + compact JSON of parameters. */
  readonly toolsSize: 'repr' | 'schema-fields';
  /**
   * Tail-walk weight (`_estimate_msg_budget_tokens`). `content-and-arguments`:
   * `len(content)//4 + 10 + Σ len(arguments)//4`, a list counted by its number of parts;
   * `envelope`: content (images 6400 chars) + the whole tool-call repr + replay fields.
   */
  readonly tailWeight: 'content-and-arguments' | 'envelope';
}

export interface ThresholdSwitches {
  /** Windows below `windowLimitTokens` trigger at no less than `minPercent` (raise only). */
  readonly smallWindowFloor: { readonly windowLimitTokens: number; readonly minPercent: number } | null;
  /** Subtract `max_tokens` (the output reservation) from the window before taking the percentage. */
  readonly reservesMaxTokens: boolean;
  /** When the 64K minimum swallows the whole window, trigger at 85% of it instead. */
  readonly guardsSwallowedWindow: boolean;
  /** Ceiling of `max_summary_tokens` (`min(ctx × 5%, ceiling)`). */
  readonly summaryTokensCeiling: number;
}

export interface PruningSwitches {
  /** Weight of a message in the prune-boundary walk: text-part lengths (2026-04) or the tail weight. */
  readonly boundaryWeight: 'text-parts' | 'tail-weight';
  /**
   * `index-max`: `max(boundary, n − min(count, n−1))`, which protects the *smaller* set (2026-04 bug);
   * `count-max`: protect `max(budget count, min(count, n))` messages.
   */
  readonly boundaryFloor: 'index-max' | 'count-max';
  /** Replace image parts / `_multimodal` envelopes of old tool results with text placeholders. */
  readonly stripsOldImages: boolean;
  /** Which old placeholders are left alone: any `[Old tool output…` prefix, or the exact sentinel. */
  readonly oldPlaceholderMatch: 'prefix' | 'exact';
  /** `legacy` reproduces the 2026-04 quirks (dict URLs printed raw); `guarded` coerces arguments. */
  readonly oneLiners: 'legacy' | 'guarded';
}

export interface BoundarySwitches {
  /**
   * `first-n-including-system`: the head is `protect_first_n` messages from index 0 (2026-04);
   * `system-plus-decaying-first-n`: system message + `protect_first_n`, which decays to 0 after
   * the first compaction.
   */
  readonly head: 'first-n-including-system' | 'system-plus-decaying-first-n';
  /** `three`: min tail `min(3, n−head−1)`; `floor-and-cap`: `max(3, min(protect_last_n, 8))`, leaving 2 compressible. */
  readonly minTail: 'three' | 'floor-and-cap';
  /** The maximum `min_tail` floor taken from `protect_last_n` (`floor-and-cap` only). */
  readonly maxTailMessageFloor: number;
  /** Re-walk at the raw budget when everything fitted under the 1.5× soft ceiling (#40803). */
  readonly rewalksAtRawBudget: boolean;
  /** Skip handoff summaries when looking for the latest user message. */
  readonly lastUserSkipsSummaries: boolean;
  /** A latest user message sitting exactly at the head end is summarised with its reply (#22523). */
  readonly causalCoupling: boolean;
  /** Keep the latest visible assistant reply in the tail (#29824). */
  readonly lastAssistantAnchor: boolean;
  /** Re-align the final cut forward so the progress floor never splits a tool group. */
  readonly finalForwardAlign: boolean;
}

export interface SummarySwitches {
  /**
   * `raw`: message content handed to the redactor as Python `str()` (2026-04); `flattened`: part
   * lists flattened to text with image labels, MEDIA directives and think blocks stripped.
   */
  readonly serialization: 'raw' | 'flattened';
  /**
   * `handoff`: "DIFFERENT assistant" preamble and `## Active Task` sections (2026-04);
   * `checkpoint`: Historical sections, memory-provider section and temporal anchoring.
   */
  readonly prompt: 'handoff' | 'checkpoint';
  /** Output cap sent with the summary call, as a multiple of the budget; null sends none. */
  readonly maxTokensFactor: number | null;
  /** Derive a focus topic from the latest user turns when none is given. */
  readonly autoFocus: boolean;
  /** Take the previous summary from a handoff message in the window; drop one with no handoff in sight. */
  readonly rehydratesPreviousSummary: boolean;
  /**
   * `plain`: the answer is stripped and redacted (2026-04); `grounded`: prompt inputs are
   * redacted too, think blocks stripped, an empty answer is a failure, and the task snapshot
   * is rewritten from the last real user ask.
   */
  readonly answerHandling: 'plain' | 'grounded';
  /**
   * `legacy`: any RuntimeError means "no provider" (600 s), else 60 s, and only a missing model
   * retries on the main model; `classified`: timeout ladder, main-model retry for any error,
   * abort instead of fallback on auth, quota or network failures.
   */
  readonly failureHandling: 'legacy' | 'classified';
  /** What replaces a failed summary: the static note, or the deterministic structured handoff. */
  readonly fallback: 'static-note' | 'deterministic';
}

export interface AssemblySwitches {
  /** `legacy-and-current` prefixes only, or every historical prefix and merged summaries too. */
  readonly summaryDetection: 'legacy-and-current' | 'all-prefixes-and-merged';
  /** Pin the summary to `user` after a system-only head or when no user turn would survive. */
  readonly forcesUserRole: boolean;
  /** `bare`: `{role, content}`; `marked`: END MARKER appended and `_compressed_summary` set. */
  readonly standaloneSummary: 'bare' | 'marked';
  /** `prepend`: summary and separator before the tail content; `wrap`: tail content fenced as prior context first. */
  readonly mergeIntoTail: 'prepend' | 'wrap';
  /** A call whose result is gone gets a `stub` result (ids by `id`), or is `strip`ped (ids by `call_id || id`). */
  readonly orphanCalls: 'stub' | 'strip';
  /** Replace images older than the newest image-bearing user turn. */
  readonly stripsHistoricalMedia: boolean;
  /** Drop the `_db_persisted` session-store marker from every assembled copy. */
  readonly stripsPersistenceMarker: boolean;
}

export interface GateSwitches {
  /**
   * `in-compress`: compress() scores savings against the caller's count and only the strike
   * count gates (2026-04); `real-usage`: the next real prompt count judges each compaction, and
   * the fallback streak, failure cooldown and preflight deferral apply too.
   */
  readonly antiThrash: 'in-compress' | 'real-usage';
  /** Gateway hygiene's message valve as a fixed count (2026-04: 400), or null to read the config. */
  readonly fixedHygieneMessageLimit: number | null;
  /** The pre-request stub result for a missing tool result carries the tool's name. */
  readonly apiStubNamesTool: boolean;
  /**
   * The pre-request sanitiser repairs tool calls (2026-07): an assistant's `tool_calls` that is
   * empty or not a list is dropped, and a call whose `function.name` is missing or blank is
   * renamed `invalid_tool_call` (a call with no function object gets `{name, arguments: "{}"}`),
   * so the call and its result stay paired. 2026-04 sent both unchanged.
   */
  readonly apiRepairsToolCalls: boolean;
}

export interface LoopSwitches {
  /**
   * `threshold-only`: the turn prologue compacts when the request estimate reaches the trigger
   * and there are more than head + tail + 1 messages (2026-04); `gated`: a cheap gate first,
   * the deferral and the progress rules between passes (2026-07).
   */
  readonly preflight: 'threshold-only' | 'gated';
  /** After a compaction, make sure a real user turn survives (append the last one if needed). */
  readonly guaranteesRealUserMessage: boolean;
  /**
   * What gateway hygiene hands to the compressor: `text-user-assistant` copies only user and
   * assistant turns with content (2026-04); `primary-roles` keeps user, assistant and tool rows.
   */
  readonly hygieneInput: 'text-user-assistant' | 'primary-roles';
}

export interface RecoverySwitches {
  /** Window guesses for an unknown context length, largest first (`CONTEXT_PROBE_TIERS`). */
  readonly contextProbeTiers: readonly number[];
  /** Read vLLM/llama.cpp wording (`max_model_len`, `n_ctx`) for the provider's limit. */
  readonly parsesServerLimitWording: boolean;
  /**
   * `anthropic-available-tokens`: only Anthropic's `available_tokens: N` marks an output-cap
   * error (2026-04); `all-shapes`: OpenRouter, vLLM and DashScope wordings too, with or without a number.
   */
  readonly outputCapErrors: 'anthropic-available-tokens' | 'all-shapes';
  /**
   * The window to retry with after an overflow: `parse-or-step-down` takes the error's number or
   * else steps down the probe tiers (2026-04); `provider-stated-only` never guesses (#33669).
   */
  readonly windowAfterOverflow: 'parse-or-step-down' | 'provider-stated-only';
  /** Cap the retried `max_tokens` by the local window estimate as well as the provider's figure. */
  readonly capsOutputRoomByLocalEstimate: boolean;
  /** A compaction that cut the token estimate meaningfully counts as progress (not only fewer messages). */
  readonly judgesProgressByTokens: boolean;
  /** A 413 that compaction cannot fix retries once with tool-result images stripped. */
  readonly stripsToolImagesOnPayloadTooLarge: boolean;
}

export interface ErrorSwitches {
  /**
   * `extended` adds 2026-07's provider-specific rules: content-policy blocks, more
   * thinking-signature wordings, the OAuth long-context beta, llama.cpp grammar errors, Grok
   * subscriptions, SSL certificate failures, reasoning-model idle kills, the stale-call breaker.
   */
  readonly catalogue: 'base' | 'extended';
  /** Message fragments that mean billing/quota exhaustion. */
  readonly billingPatterns: readonly string[];
  /** Message fragments that mean the input overflowed the window. */
  readonly overflowPatterns: readonly string[];
  /** Provider error codes that mean billing/quota exhaustion. */
  readonly billingCodes: readonly string[];
  /** An SDK `RateLimitError` without a status is treated as a 429. */
  readonly rateLimitTypeImpliesStatus: boolean;
  /** Ignore the code `"400"` and read a code nested in a JSON `error.message`. */
  readonly readsNestedErrorCodes: boolean;
  /** Recognise multimodal-tool-content, image-too-large and invalid-encrypted-content errors. */
  readonly classifiesMediaAndEncryptedErrors: boolean;
  /** Tell an empty-response advisory (it mentions max_tokens) from an overflow. */
  readonly detectsEmptyResponseAdvisories: boolean;
  /** The "large session" overflow heuristic applies only to windows up to this size; null: any. */
  readonly largeSessionMaxWindow: number | null;
}

export interface CachingSwitches {
  /**
   * `every-message`: any of the last three non-system messages takes a breakpoint, tool rows in
   * native layout only (2026-04); `content-aware`: empty turns and envelope tool/assistant rows skip it.
   */
  readonly markers: 'every-message' | 'content-aware';
  /**
   * `claude-routes`: native Anthropic (native layout), Claude over the Anthropic wire, Qwen on
   * Alibaba (2026-04); `route-table`: adds OpenRouter/Nous Claude and Kimi, MiniMax, and keeps
   * envelope layout for Anthropic-compatible endpoints (2026-07).
   */
  readonly policy: 'claude-routes' | 'route-table';
}

export interface UsageSwitches {
  /** DeepSeek's `prompt_cache_hit_tokens` counts as cache reads. */
  readonly readsPromptCacheHitTokens: boolean;
  /** Chat Completions' `completion_tokens_details.reasoning_tokens` counts as reasoning. */
  readonly readsChatReasoningTokens: boolean;
  /** Bedrock has a priced billing route. */
  readonly pricesBedrock: boolean;
  /** A model id with dots (`claude-opus-4.6`) is retried in its dashed form. */
  readonly retriesNormalizedModelIds: boolean;
}

export interface PersistenceSwitches {
  /** Per-result and per-turn budgets scale with the window (else the fixed defaults). */
  readonly scalesBudgetsToWindow: boolean;
  /** A tool's registry threshold is capped by the default result size. */
  readonly capsRegistryThresholds: boolean;
  /** `raw-id`: `<id>.txt`; `sanitized`: unsafe characters replaced and a digest suffix. */
  readonly fileNames: 'raw-id' | 'sanitized';
  /** `heredoc`: content inlined in the command; `stdin`: the command reads it from stdin. */
  readonly writeCommand: 'heredoc' | 'stdin';
}

export interface SessionSwitches {
  /**
   * `latest-started-after-end`: the latest child started at or after the parent ended, with no
   * exclusions (2026-04); `best-continuation`: compressed, then live children first, never a
   * branch, delegate or tool session (2026-07).
   */
  readonly continuationChoice: 'latest-started-after-end' | 'best-continuation';
  /** Resume walks to the compression tip first and only descends through continuations. */
  readonly resumeFollowsContinuations: boolean;
  /**
   * Where a compaction's result goes (hermes-reference §6 step 13). `rotate`: the session ends
   * with `compression` and a child continues it (2026-04, and 2026-07 with `in_place: false`);
   * `in-place`: the session keeps its id, its live rows are archived (`active=0, compacted=1`) and
   * the compacted list inserted as the new live rows, in one transaction (2026-07's default since
   * 2026-06-24). The user may override it in the settings.
   */
  readonly compaction: 'in-place' | 'rotate';
}

const PRESETS: Readonly<Record<PresetName, Preset>> = {
  'hermes-2026-04': HERMES_2026_04,
  'hermes-2026-07': HERMES_2026_07,
};

export function getPreset(name: PresetName): Preset {
  return PRESETS[name];
}

/** Every preset, in the order of `PRESET_NAMES` (the default first). */
export const ALL_PRESETS: readonly Preset[] = Object.values(PRESETS);
