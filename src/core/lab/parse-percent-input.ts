import { err, ok, type Result } from '../shared/result.ts';

export interface PercentBounds {
  /** Smallest accepted fraction (inclusive). */
  readonly min: number;
  /** Largest accepted fraction (inclusive). */
  readonly max: number;
}

/**
 * A share typed by a person, as a fraction. The fields are labelled in percent ("50"), but a
 * fraction as Hermes' config.yaml writes it ("0.5") is read too: anything up to 1 without a
 * `%` sign is taken as a fraction, since a threshold or ratio of 1% or less is never meant.
 */
export function parsePercentInput(text: string, bounds: PercentBounds): Result<number, string> {
  const trimmed = text.trim();
  if (trimmed === '') return err('Enter a percentage.');
  const hasPercentSign = trimmed.endsWith('%');
  const value = Number(hasPercentSign ? trimmed.slice(0, -1).trim() : trimmed);
  if (!Number.isFinite(value)) return err(`"${trimmed}" is not a number.`);
  const fraction = !hasPercentSign && value > 0 && value <= 1 ? value : value / 100;
  if (fraction < bounds.min || fraction > bounds.max) {
    return err(`Enter a value from ${formatPercent(bounds.min)} to ${formatPercent(bounds.max)}.`);
  }
  return ok(fraction);
}

/** `0.5` → `50`, `0.125` → `12.5`: a fraction as the number a percent field shows. */
export const formatPercent = (fraction: number): string => `${Number((fraction * 100).toFixed(2))}%`;
export const percentFieldValue = (fraction: number): string => String(Number((fraction * 100).toFixed(2)));
