import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { messageCountingText } from '#core/tokens/count-message-tokens.ts';
import { TOKEN_ENCODINGS, type TokenEncoding } from '#core/tokens/estimator.ts';
import { isSafeCountingCut, nextCountingCut } from '#core/tokens/next-counting-cut.ts';
import type { TokenCounter } from '#core/tokens/token-counter.ts';
import { createByteRankCounter } from '#worker/byte-rank-counter.ts';
import { createGptTokenizerCounter, REFERENCE_SPECIAL_TOKENS } from '#worker/gpt-tokenizer-counter.ts';
import { createReferenceTiktokenCounter, loadEncoder } from '#worker/tiktoken-counter.ts';

const repoRoot = resolve(import.meta.dirname, '../..');

/** Short strings where tokenizers tend to disagree: scripts, emoji, whitespace, specials. */
const TRICKY_TEXTS: readonly string[] = [
  '',
  ' ',
  '\n\n\n',
  '   \t  trailing spaces   ',
  'naïve café 東京 🚀',
  '日本語のテキストと中文文本，还有한국어 텍스트。',
  'Emoji: 👩‍👩‍👧‍👦 🇩🇪 🏳️‍🌈 ✋🏽 ❤️‍🔥',
  'Ελληνικά, русский текст, עברית, العربية, हिन्दी',
  'Zero\u200bwidth\u200djoiner\ufeffBOM and combining e\u0301',
  '\ufeffusing System;\r\nnamespace Demo { }',
  'id,name\n\ufeff1,\ufeffBOM in the middle \ufeff\ufeff twice',
  '   1\t\ufeff<?xml version="1.0" encoding="utf-8"?>',
  'lone surrogates \ud800 and \udc00 and reversed \udc00\ud800',
  "it's you're we'll I'M THEY'VE",
  '1234567890 3.14159 -42 1e-7 0xDEADBEEF 2025-01-14T09:00:00.000Z',
  '<|endoftext|>',
  'before <|endoftext|> after',
  'a<|endofprompt|>b<|endoftext|><|endoftext|>c',
  'fim <|fim_prefix|>x<|fim_middle|>y<|fim_suffix|>z',
  'not special in o200k or cl100k: <|im_start|>system<|im_sep|>hi<|im_end|>',
  'half <| open and |> close <|endoftext',
  '    def main():\n        return {"ok": True}  # comment\n\n\n',
  // js-tiktoken's merge is quadratic in the piece length: longer runs make the test slow, not better.
  'x'.repeat(1200),
  'y\ufeff'.repeat(200) + '\ufeff' + 'z'.repeat(900),
  'ab '.repeat(2000),
  '🚀'.repeat(200),
];

/** Source code of several languages, straight from the repo and its dependencies. */
const CODE_FILES: readonly string[] = [
  'src/core/compression/compress.ts',
  'src/ui/App.svelte',
  'tests/e2e/playwright.config.ts',
  'package.json',
  'node_modules/js-tiktoken/package.json',
];

function messageTexts(): string[] {
  const transcripts = [
    buildDemoTranscript(),
    generateAgentTranscript({ messageCount: 160, seed: 1 }),
    generateAgentTranscript({ messageCount: 160, seed: 7 }),
  ];
  return transcripts.flatMap((transcript) => transcript.messages.map(messageCountingText));
}

const MESSAGE_TEXTS = messageTexts();

describe.each(TOKEN_ENCODINGS)('createGptTokenizerCounter(%s)', (encoding: TokenEncoding) => {
  let fast: TokenCounter;
  let referenceCounter: TokenCounter;
  // js-tiktoken is the slow side: each text is counted by it once and remembered.
  const referenceCounts = new Map<string, number>();
  const reference = {
    count(text: string): number {
      let tokens = referenceCounts.get(text);
      if (tokens === undefined) {
        tokens = referenceCounter.count(text);
        referenceCounts.set(text, tokens);
      }
      return tokens;
    },
  };

  beforeAll(async () => {
    [fast, referenceCounter] = await Promise.all([
      createGptTokenizerCounter(encoding),
      createReferenceTiktokenCounter(encoding),
    ]);
  });

  it('lists exactly the special tokens js-tiktoken knows', async () => {
    const encoder = await loadEncoder(encoding);
    for (const token of REFERENCE_SPECIAL_TOKENS[encoding]) {
      expect(encoder.encode(token, 'all', []), token).toHaveLength(1);
    }
    // Any other "<|…|>" marker is ordinary text to the reference.
    expect(encoder.encode('<|im_start|>', 'all', []).length).toBeGreaterThan(1);
  });

  it('counts tricky strings like js-tiktoken', () => {
    for (const text of TRICKY_TEXTS)
      expect(fast.count(text), JSON.stringify(text.slice(0, 60))).toBe(reference.count(text));
  });

  it('counts source code like js-tiktoken', () => {
    for (const path of CODE_FILES) {
      const text = readFileSync(resolve(repoRoot, path), 'utf8');
      expect(fast.count(text), path).toBe(reference.count(text));
    }
  });

  it('has an exact byte-level path for text gpt-tokenizer cannot count (U+FEFF)', async () => {
    const { default: ranks } =
      encoding === 'o200k_base'
        ? await import('gpt-tokenizer/bpeRanks/o200k_base')
        : await import('gpt-tokenizer/bpeRanks/cl100k_base');
    const patterns = await import('gpt-tokenizer/encodingParams/constants');
    const byteRank = createByteRankCounter(
      ranks,
      encoding === 'o200k_base' ? patterns.O200K_TOKEN_SPLIT_REGEX : patterns.CL100K_TOKEN_SPLIT_REGEX,
    );
    const plain = TRICKY_TEXTS.filter((text) => !text.includes('<|'));
    const samples = [...plain, ...MESSAGE_TEXTS.slice(0, 60)];
    for (const text of samples)
      expect(byteRank(text), JSON.stringify(text.slice(0, 60))).toBe(reference.count(text));
  });

  it('counts every message of the demo and generated transcripts like js-tiktoken', () => {
    const texts = MESSAGE_TEXTS;
    const mismatches = texts.filter((text) => fast.count(text) !== reference.count(text));
    expect(mismatches.map((text) => text.slice(0, 80))).toEqual([]);
    expect(texts.length).toBeGreaterThan(300);
  });

  it('counts ordinary text cut at every safe cut exactly like the whole', () => {
    const ordinary = [
      ...TRICKY_TEXTS,
      ...CODE_FILES.map((path) => readFileSync(resolve(repoRoot, path), 'utf8')),
      ...MESSAGE_TEXTS,
    ];
    let cuts = 0;
    for (const text of ordinary) {
      let parts = 0;
      let start = 0;
      for (let index = 1; index <= text.length; index++) {
        if (index < text.length && !isSafeCountingCut(text, index)) continue;
        parts += reference.count(text.slice(start, index));
        start = index;
        cuts += 1;
      }
      expect(parts, JSON.stringify(text.slice(0, 60))).toBe(reference.count(text));
    }
    expect(cuts).toBeGreaterThan(100_000);
  });

  it('slices ordinary text only at safe cuts, and runs of one class at their bound', () => {
    for (const text of [
      ...MESSAGE_TEXTS.slice(0, 80),
      readFileSync(resolve(repoRoot, CODE_FILES[0]!), 'utf8'),
    ]) {
      for (let start = 0; start < text.length;) {
        const end = nextCountingCut(text, start, 400);
        if (end < text.length)
          expect(isSafeCountingCut(text, end), JSON.stringify(text.slice(start, end))).toBe(true);
        start = end;
      }
    }
  });

  it('counts an unbroken run in parts: close to the exact count, in linear time', () => {
    const runs = ['a', ' ', '_', '中', '\n/', '🚀', 'é', 'xyz'].map((unit) =>
      unit.repeat(Math.ceil(1200 / unit.length)),
    );
    for (const run of runs) {
      const exact = reference.count(run);
      const bounded = fast.count(run);
      expect(Math.abs(bounded - exact), JSON.stringify(run.slice(0, 12))).toBeLessThanOrEqual(
        Math.max(2, exact * 0.05),
      );
    }
    // Quadratic, 1 MB of one letter took minutes; in parts it is a fraction of a second.
    expect(fast.count('a'.repeat(1_000_000))).toBeGreaterThan(100_000);
    expect(fast.count(' '.repeat(1_000_000))).toBeGreaterThan(1000);
  }, 20_000);
});
