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
