import { describe, expect, it } from 'vitest';
import type { ComputeClient, ImportSummary, OpenedDocument } from '#io/compute/compute-client.ts';
import { ImportState, type ImportStorageOutcome, type ImportStoring } from '#state/import-state.svelte.ts';

/** A fresh report each time: what the worker sends back for a one-message import. */
const summary = (): ImportSummary =>
  ({
    format: 'openai-chat',
    metadata: { format: 'openai-chat', compactionPoints: [] },
    warnings: [],
    stats: { messages: 1, skippedLines: 0, skippedParts: 0, bytes: 2, suppressedWarnings: 0 },
  }) as unknown as ImportSummary;

const opened = { revision: 1, count: 1 } as unknown as OpenedDocument;

interface Adopted {
  title: string | null;
  storing: ImportStoring;
}

/** An importer whose worker reads every text as `summary()` and whose storage answers `storage`. */
function importerStoring(storage: (adopted: Adopted) => Promise<ImportStorageOutcome | null>) {
  const cancelled: string[] = [];
  const api = {
    importText: async () => ({ ok: true, value: { result: summary(), opened } }),
    cancel: (token: string) => void cancelled.push(token),
  };
  const compute = { run: (task: (remote: typeof api) => unknown) => task(api) } as unknown as ComputeClient;
  const statuses: string[] = [];
  const importer = new ImportState({
    compute,
    strategyName: () => 'hermes-2026-04',
    onImported: (_summary, _opened, title, storing) => {
      statuses.push(`${importer.status}: ${importer.detail}`);
      return storage({ title, storing });
    },
  });
  return { importer, statuses, cancelled };
}

describe('ImportState', () => {
  it('says stored once the session store answers', async () => {
    const { importer, statuses } = importerStoring(async () => ({ stored: true }));
    expect(await importer.importText('{}')).toBe(true);
    expect(statuses).toEqual(['storing: \u2068pasted text\u2069 · OpenAI Chat JSON · storing…']);
    expect(importer.status).toBe('done');
    expect(importer.message).toBe('1 message imported');
    expect(importer.detail).toBe('\u2068pasted text\u2069 · OpenAI Chat JSON · stored as a session');
  });

  it('shows how many messages are stored while the worker writes them, and stays busy until then', async () => {
    let finish!: (outcome: ImportStorageOutcome) => void;
    let storing!: ImportStoring;
    const { importer } = importerStoring((adopted) => {
      storing = adopted.storing;
      return new Promise((resolve) => (finish = resolve));
    });
    const done = importer.importText('{}');
    await expect.poll(() => storing).toBeDefined();
    expect(importer.busy).toBe(true);
    storing.onProgress(0);
    expect(importer.progress).toMatchObject({ stored: 0, messages: 1 });
    storing.onProgress(1);
    expect(importer.progress?.stored).toBe(1);
    expect(importer.detail).toBe('\u2068pasted text\u2069 · OpenAI Chat JSON · storing 1 / 1 messages…');
    finish({ stored: true });
    await done;
    expect(importer.busy).toBe(false);
    expect(importer.progress).toBeNull();
  });

  it('cancels the store under way by its token, and says the transcript is shown but not kept', async () => {
    let finish!: (outcome: ImportStorageOutcome) => void;
    let storing!: ImportStoring;
    const { importer, cancelled } = importerStoring((adopted) => {
      storing = adopted.storing;
      return new Promise((resolve) => (finish = resolve));
    });
    const done = importer.importText('{}');
    await expect.poll(() => storing).toBeDefined();
    await importer.cancel();
    expect(cancelled).toEqual([storing.cancelToken]);
    finish({ stored: false, reason: 'The import was cancelled before it was stored; nothing was kept.' });
    await done;
    expect(importer.status).toBe('not-stored');
    expect(importer.message).toBe(
      '1 message imported, but not stored: The import was cancelled before it was stored; nothing was kept.',
    );
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
    const titles: Array<string | null> = [];
    const file = new File(['{}'], 'invoice\u202Efdp.json');
    const api = {
      importFile: async () => ({ ok: true, value: { result: summary(), opened } }),
    };
    const fileImporter = new ImportState({
      compute: { run: (task: (remote: typeof api) => unknown) => task(api) } as unknown as ComputeClient,
      strategyName: () => 'hermes-2026-04',
      onImported: async (_summary, _opened, title) => {
        titles.push(title);
        return { stored: true };
      },
    });
    await fileImporter.importFile(file);
    expect(fileImporter.detail).toBe(
      '\u2068invoice\u202Efdp.json\u2069 · OpenAI Chat JSON · stored as a session',
    );
    expect(titles).toEqual(['invoicefdp.json']);
  });

  it('cancels while the file is read: nothing changes and the line says so', async () => {
    let cancel!: () => void;
    const api = {
      importFile: (_file: Blob, options: { cancelToken: string }) =>
        new Promise((resolve) => {
          cancel = () =>
            resolve({
              ok: false,
              error: { type: 'ImportCancelled', message: `cancelled ${options.cancelToken}` },
            });
        }),
      cancel: (token: string) => {
        expect(token).toBe('import-1');
        cancel();
      },
    };
    let adopted = false;
    const importer = new ImportState({
      compute: { run: (task: (remote: typeof api) => unknown) => task(api) } as unknown as ComputeClient,
      strategyName: () => 'hermes-2026-04',
      onImported: async () => {
        adopted = true;
        return null;
      },
    });
    const reading = importer.importFile(new File(['{}'], 'big.jsonl'));
    expect(importer.status).toBe('reading');
    await importer.cancel();
    expect(await reading).toBe(false);
    expect(importer.status).toBe('cancelled');
    expect(importer.message).toBe('Import cancelled');
    expect(importer.detail).toBe('\u2068big.jsonl\u2069: nothing was changed.');
    expect(adopted).toBe(false);
  });

  it('shows the control characters of an import error instead of obeying them', async () => {
    const api = {
      importText: async () => ({
        ok: false,
        error: { type: 'ImportError', message: 'line 1 is not valid JSON: "\u202Eevil\u001b[2J"' },
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
