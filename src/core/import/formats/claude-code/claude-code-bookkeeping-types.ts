/** Claude Code bookkeeping records: never messages, but unmistakably Claude Code. */
export const CLAUDE_CODE_BOOKKEEPING_TYPES = new Set([
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'permission-mode',
  'custom-title',
  'ai-title',
  'agent-name',
  'last-prompt',
  'worktree-state',
]);
