import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

/** Every figure is measured on the same seeded sessions (SPEC §7). */
export const BENCH_SEED = 1;

const generated = new Map<number, Transcript>();

/** The generated agent session of `size` messages, made once per process. */
export function benchTranscript(size: number): Transcript {
  let transcript = generated.get(size);
  if (!transcript) {
    transcript = generateAgentTranscript({ messageCount: size, seed: BENCH_SEED });
    generated.set(size, transcript);
  }
  return transcript;
}

const widened = new Map<number, Transcript>();

/**
 * The same session with text outside Latin-1 in every message, as real sessions have (a model's
 * dashes and quotes, a tool's emoji): each text gains an em dash and an emoji at its end, and one
 * in three opens with an emoji. V8 stores such a string two bytes a character, and the cuts,
 * lengths in code points and UTF-8 encoding of a compaction cost more on it than on the
 * generator's text, which is nearly all Latin-1.
 */
export function benchTranscriptWideText(size: number): Transcript {
  let transcript = widened.get(size);
  if (!transcript) {
    const base = benchTranscript(size);
    let texts = 0;
    const messages = base.messages.map((message) => {
      if (typeof message.content !== 'string' || message.role === 'system') return message;
      const opening = texts++ % 3 === 0 ? '\u{1F642} ' : '';
      return { ...message, content: `${opening}${message.content} \u2014 \u{1F642}` };
    });
    transcript = { ...base, messages };
    widened.set(size, transcript);
  }
  return transcript;
}
