import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { describe, expect, it } from 'vitest';
import { resolveLedgerPrices } from '#core/ledger/resolve-ledger-prices.ts';
import { decimalToString, type DecimalAmount } from '#core/usage/decimal-amount.ts';

const text = (amount: DecimalAmount | null | undefined): string | null =>
  amount ? decimalToString(amount) : null;

describe('resolveLedgerPrices', () => {
  it('takes Hermes’ snapshot route first, with the 5-minute or 1-hour write price', () => {
    const fiveMinutes = resolveLedgerPrices(
      'claude-sonnet-4-6',
      { provider: 'anthropic' },
      HERMES_2026_07,
      '5m',
    );
    expect(fiveMinutes.notes).toEqual([]);
    expect(fiveMinutes.prices?.source).toBe('snapshot');
    expect(
      [
        fiveMinutes.prices?.input,
        fiveMinutes.prices?.output,
        fiveMinutes.prices?.cacheRead,
        fiveMinutes.prices?.cacheWrite,
      ].map(text),
    ).toEqual(['3.00', '15.00', '0.30', '3.75']);
    const oneHour = resolveLedgerPrices('claude-sonnet-4-6', { provider: 'anthropic' }, HERMES_2026_07, '1h');
    expect(text(oneHour.prices?.cacheWrite)).toBe('6.00');
  });

  it('has no write price where writes are billed as plain input', () => {
    const prices = resolveLedgerPrices('gpt-4o', { provider: 'openai' }, HERMES_2026_07, '1h').prices;
    expect(text(prices?.cacheRead)).toBe('1.25');
    expect(prices?.cacheWrite).toBeNull();
  });

  it('falls back to the list price and says so', () => {
    const resolved = resolveLedgerPrices('gpt-5', { provider: 'openai' }, HERMES_2026_07, '5m');
    expect(resolved.prices?.source).toBe('list');
    expect(text(resolved.prices?.input)).toBe('1.25');
    expect(resolved.notes).toEqual(["gpt-5: list price (not in Hermes' price snapshot)"]);
  });

  it('knows no price for a local model', () => {
    expect(
      resolveLedgerPrices(
        'llama-3-70b',
        { provider: 'custom', baseUrl: 'http://localhost:8080' },
        HERMES_2026_07,
        '5m',
      ),
    ).toEqual({
      prices: null,
      notes: ['llama-3-70b: price unknown'],
    });
  });
});
