import type { LineageExportFormat } from '../io/db/export-lineage.ts';

export type SessionExportFormat = LineageExportFormat;

export interface SessionExportFormatInfo {
  format: SessionExportFormat;
  label: string;
  /** Appended to the file name, after the conversation's name. */
  fileSuffix: string;
  mimeType: string;
}

/** Every export format of a conversation, in the order the menu offers them. */
export const SESSION_EXPORT_FORMATS: readonly SessionExportFormatInfo[] = [
  {
    format: 'hermes-jsonl',
    label: 'Hermes session JSONL, with lineage',
    fileSuffix: '.hermes.jsonl',
    mimeType: 'application/x-ndjson',
  },
  {
    format: 'internal-json',
    label: 'Context Lab JSON',
    fileSuffix: '.context-lab.json',
    mimeType: 'application/json',
  },
  {
    format: 'sharegpt',
    label: 'ShareGPT trajectory JSONL',
    fileSuffix: '.sharegpt.jsonl',
    mimeType: 'application/x-ndjson',
  },
  { format: 'markdown', label: 'Markdown', fileSuffix: '.md', mimeType: 'text/markdown' },
];

export const isSessionExportFormat = (value: unknown): value is SessionExportFormat =>
  SESSION_EXPORT_FORMATS.some((info) => info.format === value);

/** A file to download: the worker produces its content as a Blob, the UI turns it into a link. */
export interface ExportFile {
  fileName: string;
  mimeType: string;
  blob: Blob;
}

const MAXIMUM_FILE_STEM_CHARS = 60;

/** `Fix the login bug #2` + `20261122_101500_ab12cd` → `fix-the-login-bug-2-20261122_101500_ab12cd`. */
export function exportFileStem(title: string | null, sessionId: string): string {
  const slug = (title ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAXIMUM_FILE_STEM_CHARS)
    .replace(/-+$/, '');
  return slug === '' ? `session-${sessionId}` : `${slug}-${sessionId}`;
}
