import { describe, expect, it } from 'vitest';
import type { ImportResult } from '#core/import/import-result.ts';
import type { ComputeClient, OpenedDocument } from '#io/compute/compute-client.ts';
import { ImportState, type ImportStorageOutcome } from '#state/import-state.svelte.ts';

/** A fresh result each time: the importer sets the title on it. */
const result = (): ImportResult =>
  ({
    format: 'openai-chat',
    transcript: { messages: [{ role: 'user', content: 'hi' }], metadata: { format: 'openai-chat' } },
    warnings: [],
    stats: { messages: 1, skippedLines: 0, skippedParts: 0, bytes: 2, suppressedWarnings: 0 },
  }) as unknown as ImportResult;

/** An importer whose worker reads every text as `result()` and whose storage answers `storage`. */
function importerStoring(storage: () => Promise<ImportStorageOutcome | null>) {
  const api = {
    importText: async () => ({ ok: true, value: { result: result(), opened: { revision: 1 } } }),
  };
  const compute = { run: (task: (remote: typeof api) => unknown) => task(api) } as unknown as ComputeClient;
  const statuses: string[] = [];
  const importer = new ImportState({
    compute,
    strategyName: () => 'hermes-2026-04',
    onImported: (_result: ImportResult, _opened: OpenedDocument) => {
      statuses.push(`${importer.status}: ${importer.detail}`);
      return storage();
    },
  });
  return { importer, statuses };
}

describe('ImportState', () => {
  it('says stored once the session store answers', async () => {
    const { importer, statuses } = importerStoring(async () => ({ stored: true }));
    expect(await importer.importText('{}')).toBe(true);
    expect(statuses).toEqual(['done: \u2068pasted text\u2069 · OpenAI Chat JSON · storing…']);
    expect(importer.status).toBe('done');
    expect(importer.message).toBe('1 message imported');
    expect(importer.detail).toBe('\u2068pasted text\u2069 · OpenAI Chat JSON · stored as a session');
  });

  it('does not say done when storing failed: the status names the failure', async () => {
    const { importer } = importerStoring(async () => ({
      stored: false,
      reason: 'Maximum call stack size exceeded',
    }));
    await importer.importText('{}');
    expect(importer.status).toBe('not-stored');
    expect(importer.message).toBe('1 message imported, but not stored: Maximum call stack size exceeded');
    expect(importer.detail).toBe(
      '\u2068pasted text\u2069 · OpenAI Chat JSON · shown until the page is reloaded',
    );
  });

  it('clears its line when dismissed (something else is on screen)', async () => {
    const { importer } = importerStoring(async () => ({ stored: true }));
    await importer.importText('{}');
    importer.dismiss();
    expect([importer.status, importer.message, importer.detail]).toEqual(['idle', '', '']);
  });

  it('says nothing about storage when there is none', async () => {
    const { importer } = importerStoring(async () => null);
    await importer.importText('{}');
    expect(importer.status).toBe('done');
    expect(importer.detail).toBe('\u2068pasted text\u2069 · OpenAI Chat JSON');
  });

  it('isolates the file name in the status line and strips bidi controls from the title', async () => {
    const titles: Array<string | undefined> = [];
    const file = new File(['{}'], 'invoice\u202Efdp.json');
    const api = {
      importFile: async () => ({
        ok: true,
        value: { result: result(), opened: { revision: 1 } },
      }),
    };
    const fileImporter = new ImportState({
      compute: { run: (task: (remote: typeof api) => unknown) => task(api) } as unknown as ComputeClient,
      strategyName: () => 'hermes-2026-04',
      onImported: async (imported) => {
        titles.push(imported.transcript.metadata.title);
        return { stored: true };
      },
    });
    await fileImporter.importFile(file);
    expect(fileImporter.detail).toBe(
      '\u2068invoice\u202Efdp.json\u2069 · OpenAI Chat JSON · stored as a session',
    );
    expect(titles).toEqual(['invoicefdp.json']);
  });

  it('shows the control characters of an import error instead of obeying them', async () => {
    const api = {
      importText: async () => ({
        ok: false,
        error: { type: 'InvalidJson', message: 'line 1 is not valid JSON: "\u202Eevil\u001b[2J"' },
      }),
    };
    const failing = new ImportState({
      compute: { run: (task: (remote: typeof api) => unknown) => task(api) } as unknown as ComputeClient,
      strategyName: () => 'hermes-2026-04',
      onImported: async () => null,
    });
    await failing.importText('x');
    expect(failing.status).toBe('error');
    expect(failing.message).toBe('line 1 is not valid JSON: "\\u202eevil\\x1b[2J"');
  });
});
