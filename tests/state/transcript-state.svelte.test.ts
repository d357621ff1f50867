import { describe, expect, it } from 'vitest';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import type { ComputeClient } from '#io/compute/compute-client.ts';
import { MAXIMUM_CHUNKS, MessageRows, ROWS_PER_CHUNK } from '#state/message-rows.svelte.ts';
import { TranscriptState } from '#state/transcript-state.svelte.ts';
import type { MessageSummary, TranscriptView } from '#state/transcript-view.ts';
import { computeApi } from '#worker/compute-api.ts';

const transcript = generateAgentTranscript({ messageCount: 3_000, seed: 7 });

/**
 * A compute client that runs the real worker API in this realm and counts what crosses the
 * boundary; `restart()` plays a worker that stopped (a new generation, its documents gone).
 */
function inProcessCompute() {
  const calls: string[] = [];
  let generation = 1;
  const api = new Proxy(computeApi, {
    get(target, key: string) {
      calls.push(key);
      return (target as Record<string, unknown>)[key];
    },
  });
  const compute = {
    get generation() {
      return generation;
    },
    isRunning: true,
    run: <T>(task: (remote: typeof computeApi) => T) => Promise.resolve(task(api)),
  } as unknown as ComputeClient;
  return {
    compute,
    calls,
    restart: (documentId: string) => {
      computeApi.closeDocument(documentId);
      generation += 1;
    },
  };
}

/** A view whose rows come back as asked, recording each request. */
function countingView(count: number): { view: TranscriptView; requests: Array<[number, number]> } {
  const requests: Array<[number, number]> = [];
  const view = {
    count,
    rows: async (start: number, end: number): Promise<MessageSummary[]> => {
      requests.push([start, end]);
      return Array.from({ length: Math.min(end, count) - start }, (_, offset) => ({
        index: start + offset,
        role: 'user',
        preview: `row ${start + offset}`,
      }));
    },
  } as unknown as TranscriptView;
  return { view, requests };
}

describe('MessageRows', () => {
  it('fetches the rows of a window a chunk at a time, once, and serves them by index', async () => {
    const { view, requests } = countingView(1_000);
    const rows = new MessageRows(view);
    expect(rows.at(150)).toBeNull();
    rows.request(140, 230);
    rows.request(150, 200);
    await expect.poll(() => rows.at(229)?.preview).toBe('row 229');
    expect(rows.at(150)?.index).toBe(150);
    expect(requests).toEqual([
      [100, 100 + ROWS_PER_CHUNK],
      [200, 200 + ROWS_PER_CHUNK],
    ]);
  });

  it('keeps a bounded number of chunks however far the list is scrolled', async () => {
    const { view, requests } = countingView(ROWS_PER_CHUNK * (MAXIMUM_CHUNKS + 10));
    const rows = new MessageRows(view);
    for (let chunk = 0; chunk < MAXIMUM_CHUNKS + 10; chunk++)
      rows.request(chunk * ROWS_PER_CHUNK, (chunk + 1) * ROWS_PER_CHUNK);
    await expect.poll(() => rows.at((MAXIMUM_CHUNKS + 9) * ROWS_PER_CHUNK)).not.toBeNull();
    // The oldest chunks were dropped; asking for them again fetches them again.
    expect(rows.at(0)).toBeNull();
    rows.request(0, 10);
    await expect.poll(() => rows.at(0)?.index).toBe(0);
    expect(requests.filter(([start]) => start === 0)).toHaveLength(2);
  });
});

describe('TranscriptState', () => {
  it('opens a transcript in the worker and keeps only a view of it: count, roles, rows and messages on demand', async () => {
    const { compute } = inProcessCompute();
    const state = new TranscriptState(compute, () => 'hermes-2026-04');
    await state.load(transcript, 'rough');
    const view = state.view!;
    expect(view.count).toBe(transcript.messages.length);
    expect(view.roleOf(5)).toBe(transcript.messages[5]!.role);
    expect(state.rough?.perMessage).toBeInstanceOf(Int32Array);
    expect(state.status).toBe('ready');
    expect((await view.rows(10, 12)).map((row) => row.index)).toEqual([10, 11]);
    expect(await view.message(42)).toEqual(transcript.messages[42]);
    await state.showDetail(42);
    expect(state.detail).toEqual({ index: 42, message: transcript.messages[42] });
    await state.showDetail(null);
    expect(state.detail).toBeNull();
  });

  it('reopens the document in a fresh worker from what it was opened from', async () => {
    const { compute, calls, restart } = inProcessCompute();
    const state = new TranscriptState(compute, () => 'hermes-2026-04');
    await state.load(transcript, 'rough');
    const before = state.view!;
    restart(state.documentId);
    await state.ensureOpen();
    expect(calls.filter((call) => call === 'openDocument')).toHaveLength(2);
    expect(state.view).not.toBe(before);
    expect(await state.view!.message(7)).toEqual(transcript.messages[7]);
  });

  it('has the worker build the demo, never sending its messages, and a fresh worker builds it again', async () => {
    const demo = buildDemoTranscript();
    const { compute, calls, restart } = inProcessCompute();
    const state = new TranscriptState(compute, () => 'hermes-2026-04');
    await state.loadDemo('rough');
    expect(state.view!.count).toBe(demo.messages.length);
    expect(state.metadata).toEqual(demo.metadata);
    expect(await state.view!.message(7)).toEqual(demo.messages[7]);
    restart(state.documentId);
    await state.ensureOpen();
    expect(calls.filter((call) => call === 'openDemo')).toHaveLength(2);
    expect(calls).not.toContain('openDocument');
    expect(state.view!.count).toBe(demo.messages.length);
    expect(await state.view!.message(12)).toEqual(demo.messages[12]);
  });

  it('says so when the worker stopped before an adopted import was stored', async () => {
    const { compute, restart } = inProcessCompute();
    const state = new TranscriptState(compute, () => 'hermes-2026-04');
    const opened = computeApi.openDocument(state.documentId, transcript.messages, 'hermes-2026-04');
    await state.adopt(opened, { format: 'openai-chat', compactionPoints: [] }, 'rough');
    restart(state.documentId);
    await expect(state.ensureOpen()).rejects.toThrow(/import it again/);
  });
});
