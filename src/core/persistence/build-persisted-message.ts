import { formatCount } from '../shared/format-count.ts';

export const PERSISTED_OUTPUT_TAG = '<persisted-output>';
export const PERSISTED_OUTPUT_CLOSING_TAG = '</persisted-output>';

const BYTES_PER_KILOBYTE = 1024;

/**
 * The `<persisted-output>` block that replaces a persisted result in context
 * (`_build_persisted_message`, hermes-reference §10). Sizes count characters, shown in KB (or MB
 * from 1,024 KB) with one decimal.
 */
export function buildPersistedMessage(
  preview: string,
  hasMore: boolean,
  originalSize: number,
  filePath: string,
): string {
  const kilobytes = originalSize / BYTES_PER_KILOBYTE;
  const size =
    kilobytes >= BYTES_PER_KILOBYTE
      ? `${pythonFixed(kilobytes / BYTES_PER_KILOBYTE, 1)} MB`
      : `${pythonFixed(kilobytes, 1)} KB`;
  return (
    `${PERSISTED_OUTPUT_TAG}\n` +
    `This tool result was too large (${formatCount(originalSize)} characters, ${size}).\n` +
    `Full output saved to: ${filePath}\n` +
    'Use the read_file tool with offset and limit to access specific sections of this output.\n\n' +
    `Preview (first ${Array.from(preview).length} chars):\n` +
    preview +
    (hasMore ? '\n...' : '') +
    `\n${PERSISTED_OUTPUT_CLOSING_TAG}`
  );
}

/**
 * Python `f'{x:.Nf}'`: the exact binary value rounded half-even. `toFixed` is exact too but breaks
 * ties upward, so exact ties (visible in a long exact expansion) are resolved here.
 */
export function pythonFixed(value: number, places: number): string {
  if (!Number.isFinite(value)) return String(value);
  const expansion = Math.abs(value).toFixed(Math.min(100, places + 80));
  const point = expansion.indexOf('.');
  const tail = expansion.slice(point + 1 + places);
  if (!/^50*$/.test(tail)) return value.toFixed(places);
  const kept = expansion.slice(0, point + 1 + places).replace(/\.$/, '');
  const lastDigit = Number(kept.charAt(kept.length - 1));
  const magnitude = lastDigit % 2 === 0 ? kept : (Number(kept) + 10 ** -places).toFixed(places);
  return (value < 0 ? '-' : '') + magnitude;
}
