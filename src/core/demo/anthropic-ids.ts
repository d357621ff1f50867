import { hashString } from './hash-string.ts';
import { createSeededRandom, type SeededRandom } from './seeded-random.ts';

// Deterministic look-alikes of the ids Anthropic and Claude Code put in transcripts, so
// generated files look real to importers without any real randomness.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
/** Anthropic ids ("toolu_01…", "msg_01…") end in 22 base62 characters. */
const ID_SUFFIX_LENGTH = 22;

export function randomBase62(random: SeededRandom, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += BASE62[Math.floor(random.next() * 62)];
  return text;
}

/** An Anthropic-style tool-use id ("toolu_01…") drawn from a seeded generator. */
export function randomToolCallId(random: SeededRandom): string {
  return `toolu_01${randomBase62(random, ID_SUFFIX_LENGTH)}`;
}

/** An Anthropic-style message id ("msg_01…"). */
export function randomMessageId(random: SeededRandom): string {
  return `msg_01${randomBase62(random, ID_SUFFIX_LENGTH)}`;
}

/** A tool-use id derived from a name: the same name always gives the same id. */
export function makeToolCallId(name: string): string {
  return randomToolCallId(createSeededRandom(hashString(name)));
}

/** A version-4-shaped UUID ("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx") drawn from a seeded generator. */
export function randomUuid(random: SeededRandom): string {
  let hex = '';
  for (let index = 0; index < 32; index++) hex += HEX[Math.floor(random.next() * 16)];
  const variant = HEX[8 + Math.floor(random.next() * 4)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
