// The benchmark page: the app's real compute worker (same source, same Vite settings) behind the
// app's own ComputeClient, driven from Node through `window.__workerBench`.
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { messageCountingText } from '#core/tokens/count-message-tokens.ts';
import type { Message } from '#core/transcript/message.ts';
import { ComputeClient } from '#io/compute/compute-client.ts';
import type { WorkerBenchApi } from './worker-bench-api.ts';

declare global {
  interface Window {
    __workerBench?: WorkerBenchApi;
  }
}

const SEED = 1;
/** Appended messages come from another session, so their text is new to the worker's caches. */
const APPEND_SEED = 2;
const DOCUMENT_ID = 'bench';
const PRESET = 'hermes-2026-04';

const compute = new ComputeClient(
  // The same worker entry main.ts starts (a relative URL, so that Vite bundles it as a worker).
  () =>
    new Worker(new URL('../../../src/worker/compute.worker.ts', import.meta.url), {
      type: 'module',
      name: 'compute',
    }),
);

/** One transcript at a time: the 50,000-message session alone is hundreds of MB. */
let transcript: { size: number; messages: Message[] } | null = null;
let rawText = '';

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

window.__workerBench = {
  async prepareTranscript(size, encoding) {
    if (transcript?.size !== size) {
      transcript = null;
      transcript = { size, messages: generateAgentTranscript({ messageCount: size, seed: SEED }).messages };
    }
    const messages = transcript.messages;
    // A fresh worker: its text cache must not already know these messages.
    compute.terminate();
    const load = await timed(() => compute.run((api) => api.countText('warm-up', encoding)));
    const open = await timed(() => compute.run((api) => api.openDocument(DOCUMENT_ID, messages, PRESET)));
    return { messages: messages.length, openMs: open.ms, encoderLoadMs: load.ms };
  },

  async countPrepared(encoding) {
    const count = await timed(() => compute.run((api) => api.countExact(DOCUMENT_ID, encoding)));
    return {
      tokens: count.value.total,
      tokenized: count.value.tokenized,
      roundTripMs: count.ms,
      workerMs: count.value.elapsedMs,
    };
  },

  async appendAndRecount(runs, encoding) {
    const source = generateAgentTranscript({ messageCount: runs + 50, seed: APPEND_SEED }).messages.filter(
      (message) => message.role !== 'system',
    );
    const results = [];
    for (let index = 0; index < runs; index++) {
      const message = source[index % source.length]!;
      const append = await timed(() =>
        compute.run((api) => api.appendMessages(DOCUMENT_ID, [message], PRESET)),
      );
      const recount = await timed(() => compute.run((api) => api.countExact(DOCUMENT_ID, encoding)));
      results.push({
        appendMs: append.ms,
        recountMs: recount.ms,
        workerMs: recount.value.elapsedMs,
        tokenized: recount.value.tokenized,
        messages: recount.value.perMessage.length,
      });
    }
    return results;
  },

  async prepareRawText(chars, encoding) {
    rawText = '';
    for (const message of generateAgentTranscript({ messageCount: 2_000, seed: SEED }).messages) {
      if (rawText.length >= chars) break;
      rawText += messageCountingText(message) + '\n';
    }
    rawText = rawText.slice(0, chars);
    await compute.run((api) => api.countText('warm-up', encoding));
    return rawText.length;
  },

  async countRawText(encoding) {
    const count = await timed(() => compute.run((api) => api.countText(rawText, encoding)));
    return { chars: rawText.length, tokens: count.value, roundTripMs: count.ms };
  },
};
