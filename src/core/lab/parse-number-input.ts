import { formatCount } from '../shared/format-count.ts';
import { err, ok, type Result } from '../shared/result.ts';

export interface NumberBounds {
  readonly min: number;
  readonly max: number;
  /** Only whole numbers (a context length, a message count). */
  readonly integer: boolean;
}

/** Bounds as written: grouped thousands, fractions kept (`0.5`, not `0`). */
const bound = (value: number): string => (Number.isInteger(value) ? formatCount(value) : String(value));

/**
 * A number typed into a settings field, within its bounds, or the sentence the field shows
 * under it: "Enter a whole number from 1 to 10,000,000."
 *
 * @example parseNumberInput('128000', { min: 1, max: 10_000_000, integer: true }) // { ok: true, value: 128000 }
 */
export function parseNumberInput(text: string, bounds: NumberBounds): Result<number, string> {
  const value = Number(text);
  if (
    text.trim() === '' ||
    !Number.isFinite(value) ||
    (bounds.integer && !Number.isInteger(value)) ||
    value < bounds.min ||
    value > bounds.max
  )
    return err(
      `Enter a ${bounds.integer ? 'whole number' : 'number'} from ${bound(bounds.min)} to ${bound(bounds.max)}.`,
    );
  return ok(value);
}
