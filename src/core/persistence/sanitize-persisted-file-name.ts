import type { Preset } from '../presets/preset.ts';
import { sha256Hex } from '../shared/sha256.ts';

const MAXIMUM_FILE_STEM_CHARS = 120;
const DIGEST_HEX_CHARS = 12;
const FALLBACK_STEM = 'tool_result';

/**
 * The file name a tool result is persisted under (hermes-reference §10): runs of characters
 * outside `[A-Za-z0-9_.-]` become `_`, leading/trailing `._-` go, and a changed or over-long id
 * gets `_<sha256(id)[:12]>` so distinct ids never collide (`../evil id` →
 * `evil_id_de30f3c53c6a.txt`). 2026-04 used the raw id.
 */
export function sanitizePersistedFileName(id: string, preset: Preset): string {
  if (preset.persistence.fileNames === 'raw-id') return `${id}.txt`;
  const rawId = id === '' ? FALLBACK_STEM : id;
  let stem = rawId.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[._-]+|[._-]+$/g, '');
  const changed = stem !== rawId;
  if (stem === '') stem = FALLBACK_STEM;
  if (changed || stem.length > MAXIMUM_FILE_STEM_CHARS) {
    const digest = sha256Hex(rawId).slice(0, DIGEST_HEX_CHARS);
    stem = stem.slice(0, MAXIMUM_FILE_STEM_CHARS).replace(/[._-]+$/, '') || FALLBACK_STEM;
    stem = `${stem}_${digest}`;
  }
  return `${stem}.txt`;
}
