import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { createMessageCaches } from '#core/lab/message-caches.ts';
import { findStrategy } from '#core/strategies/strategy-registry.ts';
import { FATE } from '#core/strategies/strategy.ts';
import { runLabCompaction } from '#worker/compress-service.ts';

const demo = buildDemoTranscript();
const strategy = findStrategy('hermes-2026-07')!;
const options = { strategy: strategy.name, config: DEFAULT_COMPRESSION_CONFIG };
const clock = (): number => 0;

describe('runLabCompaction', () => {
  it("reads each message's facts into the document's caches, and a second run assesses the same from them", async () => {
    const caches = createMessageCaches();
    const source = { messages: demo.messages, tools: demo.metadata.tools ?? [], caches };
    const first = await runLabCompaction(source, strategy, options, null, clock);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    // The user and assistant turns the compaction removed or changed were read for facts, into the cache.
    const read = demo.messages.filter(
      (message, index) =>
        first.value.fates[index] !== FATE.kept && (message.role === 'user' || message.role === 'assistant'),
    );
    expect(read.length).toBeGreaterThan(0);
    expect(read.every((message) => caches.facts.has(message))).toBe(true);
    const second = await runLabCompaction(source, strategy, options, null, clock);
    const uncached = await runLabCompaction({ ...source, caches: undefined }, strategy, options, null, clock);
    expect(second.ok && second.value.assessment).toEqual(first.value.assessment);
    expect(uncached.ok && uncached.value.assessment).toEqual(first.value.assessment);
  });
});
