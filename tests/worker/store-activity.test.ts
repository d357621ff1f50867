import { describe, expect, it } from 'vitest';
import { StoreActivity } from '#worker/store-activity.ts';

describe('StoreActivity', () => {
  it('is idle at once when nothing is stored', async () => {
    const activity = new StoreActivity();
    expect(activity.storing).toBe(false);
    await expect(activity.idle()).resolves.toBeUndefined();
  });

  it('holds what waits for it until the last of overlapping stores settles, failed or not', async () => {
    const activity = new StoreActivity();
    const events: string[] = [];
    let finishFirst!: () => void;
    let failSecond!: (error: Error) => void;
    const first = activity.during(
      () => new Promise<string>((resolve) => (finishFirst = () => resolve('first stored'))),
    );
    const second = activity.during(() => new Promise<string>((_resolve, reject) => (failSecond = reject)));
    void activity.idle().then(() => events.push('idle'));
    expect(activity.storing).toBe(true);

    finishFirst();
    await expect(first).resolves.toBe('first stored');
    expect(events).toEqual([]);
    expect(activity.storing).toBe(true);

    failSecond(new Error('quota'));
    await expect(second).rejects.toThrow('quota');
    await Promise.resolve();
    expect(events).toEqual(['idle']);
    expect(activity.storing).toBe(false);
  });
});
