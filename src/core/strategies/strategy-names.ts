/**
 * A strategy's registry name (`hermes-2026-04`, `codex-cli`, …). Names live only at the edges
 * (settings, storage, the CLI, the worker's message protocol), which check them against the
 * registry; everything else passes the `Strategy` value.
 */
export type StrategyName = string;

export const DEFAULT_STRATEGY_NAME: StrategyName = 'hermes-2026-04';
