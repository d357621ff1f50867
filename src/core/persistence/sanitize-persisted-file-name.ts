import type { Preset } from '../presets/preset.ts';
import { sha256Hex } from '../shared/sha256.ts';
import { pythonStr } from '../tokens/python-repr.ts';
import { pythonTruthy } from '../tokens/python-truthy.ts';

const MAXIMUM_FILE_STEM_CHARS = 120;
const DIGEST_HEX_CHARS = 12;
const FALLBACK_STEM = 'tool_result';

/**
 * The file name a tool result is persisted under (hermes-reference §10): runs of characters
 * outside `[A-Za-z0-9_.-]` become `_`, leading/trailing `._-` go, and a changed or over-long id
 * gets `_<sha256(id)[:12]>` so distinct ids never collide (`../evil id` →
 * `evil_id_de30f3c53c6a.txt`). 2026-04 used the raw id, `..` and `/` included.
 *
 * The id is a tool-call id as stored; like Hermes (`str(tool_use_id or "tool_result")`) a
 * missing or falsy one becomes `tool_result`, and a non-string one its Python `str()`.
 */
export function sanitizePersistedFileName(id: unknown, preset: Preset): string {
  if (preset.persistence.fileNames === 'raw-id') return `${pythonStr(id)}.txt`;
  const rawId = pythonTruthy(id) ? pythonStr(id) : FALLBACK_STEM;
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
