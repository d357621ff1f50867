// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { parseNumberInput } from '#core/lab/parse-number-input.ts';
import { parsePercentInput, percentFieldValue } from '#core/lab/parse-percent-input.ts';
import NumberField from '#ui/primitives/NumberField.svelte';

const parseShare = (text: string) => parsePercentInput(text, { min: 0.01, max: 1 });

function renderShare(value: number, onValue = vi.fn()) {
  const props = {
    id: 'setting-threshold',
    testid: 'setting-threshold',
    label: 'Threshold (% of window)',
    kind: 'decimal' as const,
    value,
    parse: parseShare,
    format: percentFieldValue,
    onValue,
    hint: 'a fraction such as 0.5 works too',
  };
  const view = render(NumberField, { props });
  return { ...view, props, onValue, input: view.getByTestId('setting-threshold') as HTMLInputElement };
}

describe('NumberField', () => {
  it('shows the value as its format writes it, with the label and the hint', () => {
    const { input, getByLabelText, container } = renderShare(0.5);
    expect(input.value).toBe('50');
    expect(getByLabelText('Threshold (% of window)')).toBe(input);
    expect(container.querySelector('.hint')?.textContent).toBe('a fraction such as 0.5 works too');
  });

  it('passes every valid entry on and keeps how it was typed', async () => {
    const { input, onValue, props, rerender } = renderShare(0.5);
    await fireEvent.input(input, { target: { value: '0.6' } });
    expect(onValue).toHaveBeenCalledWith(0.6);
    await rerender({ ...props, value: 0.6 });
    // "0.6" means 60%: the field keeps the fraction the user typed.
    expect(input.value).toBe('0.6');
  });

  it('keeps an invalid entry visible with its error, and passes nothing on', async () => {
    const { input, onValue, getByRole } = renderShare(0.5);
    await fireEvent.input(input, { target: { value: 'abc' } });
    expect(onValue).not.toHaveBeenCalled();
    expect(input.value).toBe('abc');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(getByRole('alert').textContent).toBe('"abc" is not a number.');
  });

  it('takes a value set from elsewhere over an invalid entry, and the error goes', async () => {
    const { input, props, rerender, queryByRole } = renderShare(0.5);
    await fireEvent.input(input, { target: { value: 'abc' } });
    await rerender({ ...props, value: 0.75 });
    expect(input.value).toBe('75');
    expect(queryByRole('alert')).toBeNull();
  });

  it('reads whole numbers with their bounds', async () => {
    const onValue = vi.fn();
    const { getByTestId, getByRole } = render(NumberField, {
      props: {
        id: 'setting-protect-last-n',
        testid: 'setting-protect-last-n',
        label: 'protect_last_n',
        value: 20,
        parse: (text: string) => parseNumberInput(text, { min: 0, max: 1000, integer: true }),
        onValue,
      },
    });
    const input = getByTestId('setting-protect-last-n') as HTMLInputElement;
    expect(input.type).toBe('number');
    await fireEvent.input(input, { target: { value: '2.5' } });
    expect(getByRole('alert').textContent).toBe('Enter a whole number from 0 to 1,000.');
    await fireEvent.input(input, { target: { value: '8' } });
    expect(onValue).toHaveBeenCalledWith(8);
  });
});
