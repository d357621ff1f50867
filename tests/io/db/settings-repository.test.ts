import { describe, expect, it } from 'vitest';
import { AppDb } from '#io/db/app-db.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { isEstimator } from '#core/tokens/estimator.ts';
import { uniqueDbName } from '#tests/helpers/open-db-at-version.ts';

describe('SettingsRepository', () => {
  it('returns the fallback until a value is saved, then the saved value', async () => {
    const db = new AppDb(uniqueDbName('settings'));
    const settings = new SettingsRepository(db, () => 42);
    expect(await settings.get('estimator', 'o200k_base', isEstimator)).toBe('o200k_base');
    await settings.set('estimator', 'cl100k_base');
    expect(await settings.get('estimator', 'o200k_base', isEstimator)).toBe('cl100k_base');
    expect((await db.settings.get('estimator'))?.updatedAt).toBe(42);
    db.close();
  });

  it('ignores a stored value that fails validation', async () => {
    const db = new AppDb(uniqueDbName('settings-invalid'));
    await db.settings.put({ key: 'estimator', value: 'gpt2', updatedAt: 1 });
    expect(await new SettingsRepository(db).get('estimator', 'rough', isEstimator)).toBe('rough');
    db.close();
  });
});
