import { describe, expect, it } from 'vitest';
import { compress, type CompressOptions } from '#core/compression/compress.ts';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { LEGACY_SUMMARY_PREFIX } from '#core/compression/markers.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import type { Preset } from '#core/presets/preset.ts';
import type { Message } from '#core/transcript/message.ts';
import {
  assistant,
  conversation,
  failingSummarizer,
  recordingSummarizer,
  system,
  toolCall,
  toolResult,
  user,
} from './message-builders.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const options = (preset: Preset, overrides: Partial<CompressOptions> = {}): CompressOptions => ({
  config: { ...DEFAULT_COMPRESSION_CONFIG },
  preset,
  state: createCompressorState(),
  tailTokenBudgetOverride: 250,
  ...overrides,
});
const deps = (summarizer = recordingSummarizer()) => ({ summarizer, now: () => 0 });
const transcript = (): Message[] => [system('sys'), ...conversation(14, 2000)];

describe('compress', () => {
  for (const preset of [HERMES_2026_04, HERMES_2026_07] as const) {
    it(`replaces the middle with a summary and reports the boundaries (${preset.name})`, async () => {
      const input = transcript();
      const result = await compress(input, options(preset), deps());
      expect(result.skipped).toBeNull();
      expect(result.messages.length).toBeLessThan(input.length);
      const { headEnd, tailStart } = result.boundaries!;
      expect(result.summarizedRange).toEqual({ start: headEnd, end: tailStart });
      expect(result.messages.slice(-(input.length - tailStart))).toEqual(input.slice(tailStart));
      expect(result.compressionCount).toBe(1);
      expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
      expect(result.prompt).toContain('TURNS TO SUMMARIZE:');
    });

    it(`never mutates the input (${preset.name})`, async () => {
      const input = [
        ...transcript(),
        assistant('', [toolCall('c1')]),
        toolResult('c1', 'r'.repeat(500)),
        user('go on'),
      ];
      const snapshot = structuredClone(input);
      await compress(input, options(preset), deps());
      expect(input).toEqual(snapshot);
    });
  }

  describe('where 2026-04 Hermes raised while pruning', () => {
    /** Protects only the last 4 messages, so the early tool result is pruned. */
    const shortTail = { ...DEFAULT_COMPRESSION_CONFIG, protectLastN: 4 };
    /** A long session whose first old tool result has a bool command: 2026-04's one-liner raises. */
    const crashing = (): Message[] => [
      system('sys'),
      user('start'),
      assistant('', [{ ...toolCall('c1'), function: { name: 'terminal', arguments: '{"command": true}' } }]),
      toolResult('c1', 'out\n'.repeat(300)),
      ...conversation(14, 2000),
    ];

    it('2026-04 refuses: nothing compacted, nothing counted, no summary call, the exception named', async () => {
      const summarizer = recordingSummarizer();
      const input = crashing();
      const state = createCompressorState();
      const result = await compress(
        input,
        options(HERMES_2026_04, { state, config: shortTail }),
        deps(summarizer),
      );
      expect(result.skipped).toBe('hermes-raised');
      expect(result.raised).toEqual({
        type: 'HermesRaised',
        function: '_summarize_tool_result',
        exception: "TypeError: object of type 'bool' has no len()",
      });
      expect(result.messages).toEqual(input);
      expect(result.state).toEqual(state);
      expect(result.compressionCount).toBe(0);
      expect(summarizer.requests).toHaveLength(0);
    });

    it('2026-07 compacts the same session', async () => {
      const result = await compress(crashing(), options(HERMES_2026_07, { config: shortTail }), deps());
      expect(result.skipped).toBeNull();
      expect(result.raised).toBeNull();
      expect(result.compressionCount).toBe(1);
    });

    it('2026-04 still refuses too few messages first, as compress() returned before pruning', async () => {
      const result = await compress(
        crashing().slice(0, 6),
        options(HERMES_2026_04, { config: shortTail }),
        deps(),
      );
      expect(result.skipped).toBe('too-few-messages');
      expect(result.raised).toBeNull();
    });
  });

  it('returns the input unchanged with too few messages, striking the 2026-07 breaker', async () => {
    const input = conversation(5);
    const result = await compress(input, options(HERMES_2026_07), deps());
    expect(result.skipped).toBe('too-few-messages');
    expect(result.messages).toEqual(input);
    expect(result.state.ineffectiveCount).toBe(1);
    const legacy = await compress(conversation(4), options(HERMES_2026_04), deps());
    expect(legacy.state.ineffectiveCount).toBe(0);
  });

  it('inserts the deterministic fallback and counts dropped messages when the summary fails (2026-07)', async () => {
    const result = await compress(
      transcript(),
      options(HERMES_2026_07),
      deps(failingSummarizer({ message: 'boom' }) as never),
    );
    expect(result.usedFallback).toBe(true);
    expect(result.droppedCount).toBe(result.boundaries!.tailStart - result.boundaries!.headEnd);
    expect(result.summary).toContain('best-effort deterministic fallback');
    expect(result.summaryError).toBe('boom');
  });

  it('aborts without dropping anything on an auth failure or when configured (2026-07)', async () => {
    const input = transcript();
    const auth = await compress(
      input,
      options(HERMES_2026_07),
      deps(failingSummarizer({ message: 'denied', status: 403 }) as never),
    );
    expect(auth).toMatchObject({ aborted: true, skipped: 'summary-failed-aborted' });
    expect(auth.messages).toEqual(input);
    const configured = await compress(
      input,
      options(HERMES_2026_07, { config: { ...DEFAULT_COMPRESSION_CONFIG, abortOnSummaryFailure: true } }),
      deps(failingSummarizer({ message: 'boom' }) as never),
    );
    expect(configured.aborted).toBe(true);
  });

  it('uses the static note in 2026-04 and never aborts', async () => {
    const result = await compress(
      transcript(),
      options(HERMES_2026_04, { config: { ...DEFAULT_COMPRESSION_CONFIG, abortOnSummaryFailure: true } }),
      deps(failingSummarizer({ message: 'denied', status: 403 }) as never),
    );
    expect(result.aborted).toBe(false);
    expect(result.summary).toContain('Summary generation was unavailable.');
  });

  it('rehydrates a handoff summary inside the window as the previous summary (2026-07)', async () => {
    const input = [system('sys'), user(`${LEGACY_SUMMARY_PREFIX} OLD BODY`), ...conversation(12)];
    const result = await compress(
      input,
      options(HERMES_2026_07, { state: createCompressorState({ compressionCount: 1 }) }),
      deps(),
    );
    expect(result.previousSummaryUsed).toBe('OLD BODY');
    expect(result.prompt).toContain('PREVIOUS SUMMARY:\nOLD BODY\n\nNEW TURNS TO INCORPORATE:');
    expect(result.summarizedRange!.start).toBe(2);
  });

  it('clears a previous summary that no message in the window carries (2026-07)', async () => {
    const state = createCompressorState({ previousSummary: 'from another session' });
    const result = await compress(transcript(), options(HERMES_2026_07, { state }), deps());
    expect(result.previousSummaryUsed).toBeNull();
  });

  it('warns from the second compaction on', async () => {
    const second = await compress(
      transcript(),
      options(HERMES_2026_04, { state: createCompressorState({ compressionCount: 1 }) }),
      deps(),
    );
    expect(second.warning).toBe(
      '⚠️  Session compressed 2 times — accuracy may degrade. Consider /new to start fresh.',
    );
    const first = await compress(transcript(), options(HERMES_2026_04), deps());
    expect(first.warning).toBeNull();
  });

  it('clears the failure cooldown when forced', async () => {
    const state = createCompressorState({ cooldownUntilMs: 10_000 });
    const summarizer = recordingSummarizer();
    const skipped = await compress(transcript(), options(HERMES_2026_07, { state }), deps(summarizer));
    expect(skipped).toMatchObject({
      usedFallback: true,
      summarySkippedForCooldown: true,
      summaryError: null,
    });
    expect(skipped.summary).toMatch(/for \d+ compacted message\(s\)\.$/);
    expect(summarizer.requests).toHaveLength(0);
    const forced = await compress(
      transcript(),
      options(HERMES_2026_07, { state, force: true }),
      deps(summarizer),
    );
    expect(forced.usedFallback).toBe(false);
  });

  it('derives an automatic focus topic in 2026-07 but not in 2026-04', async () => {
    const current = await compress(transcript(), options(HERMES_2026_07), deps());
    expect(current.focusTopic).toMatch(/^Recent user focus:\n- /);
    const legacy = await compress(transcript(), options(HERMES_2026_04), deps());
    expect(legacy.focusTopic).toBeNull();
  });

  it('reports the tool pairs it repaired', async () => {
    const input = [...transcript(), assistant('', [toolCall('dangling')]), user('next')];
    const current = await compress(input, options(HERMES_2026_07), deps());
    expect(current.repairedToolPairs.strippedCalls).toEqual(['dangling']);
    const legacy = await compress(input, options(HERMES_2026_04), deps());
    expect(legacy.repairedToolPairs.stubbedCalls).toEqual(['dangling']);
  });
});
