/**
 * Pruning is prepared once per transcript, but old outputs are only turned into one-liners
 * (which parses their call's arguments) as far as a boundary asks: a compaction never pays for
 * pruning the protected tail.
 */
import { describe, expect, it, vi } from 'vitest';
import { prepareToolPruning, pruneOldToolResults } from '#core/compression/prune-old-tool-results.ts';
import { summarizeToolResult } from '#core/compression/summarize-tool-result.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

vi.mock('#core/compression/summarize-tool-result.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('#core/compression/summarize-tool-result.ts')>();
  return { ...real, summarizeToolResult: vi.fn(real.summarizeToolResult) };
});

const { messages } = generateAgentTranscript({ messageCount: 400, seed: 12 });
const summarized = vi.mocked(summarizeToolResult);
/** Which tool results the one-liner was asked about, by index. */
const summarizedIndices = (): number[] =>
  summarized.mock.calls.map(([, , content]) =>
    messages.findIndex((message) => message.role === 'tool' && message.content === content),
  );

describe('prepareToolPruning', () => {
  it.each([HERMES_2026_04, HERMES_2026_07])(
    'summarises old outputs only below the boundary asked for ($name)',
    (preset) => {
      summarized.mockClear();
      const pruning = prepareToolPruning(messages, preset);
      const boundary = 200;
      const result = pruning.at(boundary);
      const oneLiners = (upTo: number): number =>
        pruning.at(upTo).pruned.filter((item) => item.kind === 'one-liner').length;
      // One call per one-liner made below the boundary, and none for the tail.
      expect(summarized.mock.calls.length).toBe(oneLiners(boundary));
      expect(summarized.mock.calls.length).toBeGreaterThan(10);
      expect(Math.max(...summarizedIndices())).toBeLessThan(boundary);
      // Further out, only the messages between the two boundaries are summarised, and the
      // result is what pruning at once gives.
      const further = pruning.at(300);
      expect(summarized.mock.calls.length).toBe(oneLiners(300));
      expect(further).toEqual(
        pruneOldToolResults(
          messages,
          { protectTailCount: messages.length - 300, protectTailTokens: null },
          preset,
        ),
      );
      expect(pruning.at(boundary)).toEqual(result);
    },
  );

  it('prunes everything when every candidate is asked for', () => {
    summarized.mockClear();
    const pruning = prepareToolPruning(messages, HERMES_2026_07);
    pruning.at(50);
    const all = pruning.candidates;
    expect(Math.max(...all.map((item) => item.index))).toBeGreaterThan(350);
    expect(pruning.fullyPruned).toHaveLength(messages.length);
  });
});
