import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { compress } from '#core/compression/compress.ts';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import type { Summarizer } from '#core/compression/summarizer.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { toOpenAiChatJson } from '#core/demo/write-openai-json.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import { estimateMessagesTokensRough } from '#core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '#core/transcript/message.ts';
import type { Transcript } from '#core/transcript/transcript.ts';
import { ALL_PRESETS, type Preset } from '#core/presets/preset.ts';

const digest = (text: string | null): string | null =>
  text === null ? null : createHash('sha256').update(text).digest('hex');

/** A summariser that answers the same text whatever it is asked: the prompt is compared on its own. */
const stubSummarizer: Summarizer = {
  label: 'stub',
  offline: true,
  summarize: () => Promise.resolve('## Goal\nStub summary.'),
};

/**
 * The generated session as an agent framework writes it: some assistant turns that only call
 * tools carry `content: null`, some leave `content` out (both are valid OpenAI chat).
 */
function withNullAndAbsentContent(transcript: Transcript): Transcript {
  let toolTurn = 0;
  const messages = transcript.messages.map((message): Message => {
    if (message.role !== 'assistant' || !message.tool_calls) return message;
    toolTurn += 1;
    if (toolTurn % 3 === 0) return { ...message, content: null };
    if (toolTurn % 5 === 0) {
      const { content: _dropped, ...rest } = message;
      return rest;
    }
    return message;
  });
  return { ...transcript, messages };
}

async function compressDigests(messages: readonly Message[], preset: Preset, summarizer: Summarizer) {
  const result = await compress(
    messages,
    {
      config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 64_000 },
      preset,
      state: createCompressorState(),
      force: true,
      today: null,
    },
    { summarizer, now: () => 1_700_000_000_000 },
  );
  return {
    boundaries: result.boundaries,
    prunedCount: result.prunedCount,
    summaryBudgetTokens: result.summaryBudgetTokens,
    prompt: digest(result.prompt),
    summary: digest(result.summary),
    output: digest(JSON.stringify(result.messages)),
  };
}

describe('importing an OpenAI chat file keeps what Hermes sees', () => {
  for (const messageCount of [200, 2000]) {
    const raw = withNullAndAbsentContent(generateAgentTranscript({ messageCount, seed: 7 }));
    const text = toOpenAiChatJson(raw);
    const parsed = (JSON.parse(text) as { messages: Message[] }).messages;
    const imported = importTranscript(text);

    it(`keeps ${messageCount} generated messages byte for byte (null content stays null, absent stays absent)`, () => {
      expect(imported.ok).toBe(true);
      const messages = imported.ok ? imported.value.transcript.messages : [];
      expect(parsed.some((message) => message.content === null)).toBe(true);
      expect(parsed.some((message) => !('content' in message))).toBe(true);
      expect(JSON.stringify(messages)).toBe(JSON.stringify(parsed));
    });

    for (const preset of ALL_PRESETS) {
      it(`gives compress() the same rough size, prompt and output as the raw messages (${messageCount}, ${preset.name})`, async () => {
        const messages = imported.ok ? imported.value.transcript.messages : [];
        expect(estimateMessagesTokensRough(messages, preset)).toBe(
          estimateMessagesTokensRough(parsed, preset),
        );
        for (const summarizer of [createOfflineSummarizer(), stubSummarizer]) {
          expect(await compressDigests(messages, preset, summarizer)).toEqual(
            await compressDigests(parsed, preset, summarizer),
          );
        }
      });
    }
  }
});
