/**
 * A ratio as a percentage with one decimal (`0.8234` → `82.3%`), `—` when there is none (a
 * request that read nothing has no cache hit rate).
 */
export function formatRate(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(1)}%`;
}
