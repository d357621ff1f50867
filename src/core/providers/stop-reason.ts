/**
 * Why the model stopped, in one vocabulary for every provider (vercel/ai's finish reasons).
 * The provider's own value is kept next to it as `rawStopReason`.
 */
export type StopReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'other';
