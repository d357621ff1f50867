// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import ApiKeyField from '#ui/provider/ApiKeyField.svelte';

const KEY = 'sk-ant-api03-SECRETSECRETSECRET-9f2c';

describe('ApiKeyField', () => {
  it('is a password field that empties itself once the key is saved', async () => {
    const onSave = vi.fn(async () => true);
    const { getByTestId, container } = render(ApiKeyField, {
      props: {
        hint: '',
        providerLabel: 'Anthropic',
        destination: 'https://api.anthropic.com',
        onSave,
        onRemove: async () => {},
      },
    });
    const input = getByTestId('api-key') as HTMLInputElement;
    expect(input.type).toBe('password');
    await fireEvent.input(input, { target: { value: KEY } });
    await fireEvent.click(getByTestId('api-key-save'));
    expect(onSave).toHaveBeenCalledWith(KEY);
    expect(input.value).toBe('');
    expect(container.innerHTML).not.toContain('SECRET');
  });

  it('shows only the masked hint of a stored key, with a Remove button', async () => {
    const onRemove = vi.fn(async () => {});
    const { getByTestId, container } = render(ApiKeyField, {
      props: {
        hint: 'sk-ant-…9f2c',
        providerLabel: 'Anthropic',
        destination: 'x',
        onSave: async () => true,
        onRemove,
      },
    });
    expect(getByTestId('api-key-hint').textContent).toBe('sk-ant-…9f2c');
    expect((getByTestId('api-key') as HTMLInputElement).placeholder).toBe('Paste a new key to replace it');
    await fireEvent.click(getByTestId('api-key-remove'));
    expect(onRemove).toHaveBeenCalled();
    expect(container.textContent).toContain('Removed from this browser.');
  });
});
