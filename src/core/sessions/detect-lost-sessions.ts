/** What the app last saw of the session store: how many sessions, and the newest one's id. */
export interface StoredSessionsMarker {
  readonly count: number;
  readonly newestId: string | null;
}

/**
 * How many stored sessions disappeared since the last run, judged from the marker the app keeps
 * outside IndexedDB: none when there was no marker (a first run, or site data cleared by the
 * user, which clears the marker too), or when the newest session seen then is still there (the
 * app's own deletes update the marker). A browser that evicts this site's IndexedDB under storage
 * pressure removes every session at once.
 *
 * @example
 * detectLostSessions({ count: 12, newestId: 'a' }, { count: 0, newestIdPresent: false }) // 12
 */
export function detectLostSessions(
  lastRun: StoredSessionsMarker | null,
  now: { readonly count: number; readonly newestIdPresent: boolean },
): number {
  if (lastRun === null || lastRun.count <= 0 || lastRun.newestId === null) return 0;
  if (now.newestIdPresent) return 0;
  return Math.max(0, lastRun.count - now.count);
}
