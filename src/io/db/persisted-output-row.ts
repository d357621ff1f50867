/**
 * A tool result too large for the conversation (hermes-reference §10), stored whole. The
 * conversation holds a `<persisted-output>` preview naming `fileName`; the model reads the rest
 * by offset and limit.
 */
export interface PersistedOutputRow {
  /** `<sanitised tool call id>.txt`, unique across the database like a file in Hermes' sandbox dir. */
  fileName: string;
  sessionId: string;
  /** The tool call whose result this is, when the storing message names it. */
  toolCallId: string | null;
  content: string;
  createdAt: number;
}
