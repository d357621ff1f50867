import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, type BudgetConfig } from '#core/persistence/budget-config.ts';
import {
  maybePersistToolResult,
  maybePersistToolResultDetailed,
} from '#core/persistence/maybe-persist-tool-result.ts';
import type { ToolResultStorage } from '#core/persistence/tool-result-storage.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const config: BudgetConfig = { defaultResultSize: 100, turnBudget: 300, previewSize: 20 };

function memoryStorage(succeeds = true): ToolResultStorage & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return {
    location: 'idb://tool-results/',
    files,
    write(fileName, content) {
      if (succeeds) files.set(fileName, content);
      return succeeds;
    },
  };
}

describe('maybePersistToolResult', () => {
  it('returns content at or under the threshold unchanged', () => {
    const content = 'y'.repeat(100);
    expect(
      maybePersistToolResult(content, 'terminal', 'c1', memoryStorage(), config, undefined, HERMES_2026_07),
    ).toBe(content);
  });

  it.each([HERMES_2026_04, HERMES_2026_07])(
    'never persists read_file output, whatever its size ($name)',
    (preset) => {
      const content = 'z'.repeat(10_000);
      for (const storage of [memoryStorage(), null]) {
        const outcome = maybePersistToolResultDetailed(
          content,
          'read_file',
          'c1',
          storage,
          config,
          undefined,
          preset,
        );
        expect(outcome).toEqual({ kind: 'unchanged', text: content, fileName: null });
      }
    },
  );

  it('persists read_file output when the caller passes an explicit threshold (the turn budget passes 0)', () => {
    const storage = memoryStorage();
    const outcome = maybePersistToolResultDetailed(
      'z'.repeat(500),
      'read_file',
      'c1',
      storage,
      config,
      0,
      HERMES_2026_07,
    );
    expect(outcome.kind).toBe('persisted');
    expect(storage.files.get('c1.txt')).toBe('z'.repeat(500));
  });

  it('leaves any result unchanged under an explicit infinite threshold', () => {
    const content = 'w'.repeat(500);
    expect(
      maybePersistToolResult(content, 'terminal', 'c1', memoryStorage(), config, Infinity, HERMES_2026_07),
    ).toBe(content);
  });

  it('stores the full content and names the storage reference', () => {
    const storage = memoryStorage();
    const content = 'line\n'.repeat(50);
    const outcome = maybePersistToolResultDetailed(
      content,
      'terminal',
      'call 1',
      storage,
      config,
      undefined,
      HERMES_2026_07,
    );
    expect(outcome.kind).toBe('persisted');
    expect(outcome.fileName).toBe('call_1_' + outcome.fileName!.slice(7, 19) + '.txt');
    expect(storage.files.get(outcome.fileName!)).toBe(content);
    expect(outcome.text).toContain(`Full output saved to: idb://tool-results/${outcome.fileName}`);
    expect(outcome.text).toContain('(250 characters, 0.2 KB)');
  });

  it('truncates inline when the write fails', () => {
    const outcome = maybePersistToolResultDetailed(
      'q'.repeat(2500),
      'web',
      'c',
      memoryStorage(false),
      config,
      undefined,
      HERMES_2026_07,
    );
    expect(outcome.kind).toBe('truncated');
    expect(outcome.text).toBe(
      `${'q'.repeat(20)}\n\n[Truncated: tool response was 2,500 chars. Full output could not be saved to sandbox.]`,
    );
  });

  it('caps a registry threshold at the default result size in 2026-07 only', () => {
    const withRegistry = { ...config, registryThresholds: { web: 500 } };
    const content = 'w'.repeat(200);
    expect(
      maybePersistToolResult(content, 'web', 'c', null, withRegistry, undefined, HERMES_2026_07),
    ).not.toBe(content);
    expect(maybePersistToolResult(content, 'web', 'c', null, withRegistry, undefined, HERMES_2026_04)).toBe(
      content,
    );
  });

  it('uses the default budget of 100,000 characters per result', () => {
    const content = 'a'.repeat(DEFAULT_BUDGET.defaultResultSize);
    expect(
      maybePersistToolResult(content, 'terminal', 'c', null, DEFAULT_BUDGET, undefined, HERMES_2026_07),
    ).toBe(content);
  });
});
