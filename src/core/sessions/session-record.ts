/**
 * One row of the session store, as the continuation-chain logic needs it (hermes-reference §11).
 * Times are epoch seconds (Hermes stores REAL seconds).
 */
export interface SessionRecord {
  id: string;
  parentSessionId: string | null;
  startedAt: number;
  endedAt: number | null;
  endReason: string | null;
  title: string | null;
  /** `cli`, `tui`, `gateway`, `tool`, … */
  source: string;
  /** Parsed `model_config`; `_branched_from` / `_delegate_from` mark non-continuation children. */
  modelConfig: Record<string, unknown> | null;
  /** Timestamp of the newest live message, null when the session has none. */
  lastMessageAt: number | null;
  messageCount: number;
}

/** `end_reason` values Hermes writes. The first reason recorded wins. */
export const END_REASONS = Object.freeze({
  compression: 'compression',
  userExit: 'user_exit',
  cliClose: 'cli_close',
  sessionReset: 'session_reset',
  agentClose: 'agent_close',
  wsOrphanReap: 'ws_orphan_reap',
  branched: 'branched',
  done: 'done',
  completed: 'completed',
  cronComplete: 'cron_complete',
  newSession: 'new_session',
  sessionSwitch: 'session_switch',
  resumedOther: 'resumed_other',
  timeout: 'timeout',
  tuiShutdown: 'tui_shutdown',
  orphanedCompression: 'orphaned_compression',
  idle: 'idle',
  daily: 'daily',
  suspended: 'suspended',
  resumePendingExpired: 'resume_pending_expired',
} as const);

export type EndReason = (typeof END_REASONS)[keyof typeof END_REASONS];

/**
 * Branches, delegations and tool sessions hang off a parent too but never continue it
 * (2026-07 excludes them from the chain).
 */
export function isContinuationCandidate(session: SessionRecord): boolean {
  const config = session.modelConfig;
  const marked = (key: string): boolean =>
    config !== null && config[key] !== null && config[key] !== undefined;
  return !marked('_branched_from') && !marked('_delegate_from') && session.source !== 'tool';
}

/**
 * Marks a continuation whose rotation was undone (in its `model_config`, with `_branched_from`):
 * the number of the epoch that made it a branch. Its parent is live again; redo brings it back.
 */
export const UNDONE_COMPACTION_KEY = '_compaction_undone';

export const isUndoneContinuation = (session: Pick<SessionRecord, 'modelConfig'>): boolean =>
  typeof session.modelConfig?.[UNDONE_COMPACTION_KEY] === 'number';

export const hasMessages = (session: SessionRecord): boolean => session.messageCount > 0;

export function childrenOf(sessions: readonly SessionRecord[], parentId: string): SessionRecord[] {
  return sessions.filter((session) => session.parentSessionId === parentId);
}

/** Latest `startedAt` first; on a tie the earlier row wins, like SQLite's stable sort. */
export function latestStarted(children: readonly SessionRecord[]): SessionRecord | null {
  let best: SessionRecord | null = null;
  for (const child of children) if (best === null || child.startedAt > best.startedAt) best = child;
  return best;
}
