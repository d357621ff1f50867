/**
 * fast-check arbitraries for agent transcripts, shared by every property test of compaction,
 * boundaries and fidelity. A transcript is built from small numbers and choices (turns, tool
 * rounds, sizes, scripts), never from a seed, so fast-check shrinks a failure to a few short
 * messages: fewer turns, fewer calls, shorter texts, plain ASCII.
 *
 * What they cover: a system prompt or none; a resumed session that opens with an earlier
 * summary; user asks; tool rounds of parallel calls whose results fail, repeat, or run long;
 * replies with decisions; text with accents, combining marks, CJK and emoji (astral characters,
 * so UTF-16 lengths differ from character counts). `arbitraryLooseTranscript` drops the
 * turn rhythm for the boundary planner: any order, interrupted tool rounds, images, summaries in
 * the middle and outputs of tens of thousands of characters.
 */
import fc from 'fast-check';
import { assertNever } from '#core/shared/assert-never.ts';
import type { Message, ToolCall } from '#core/transcript/message.ts';

export const SCRIPTS = ['ascii', 'accented', 'cjk', 'emoji'] as const;
export type Script = (typeof SCRIPTS)[number];

const VOCABULARY: Readonly<Record<Script, readonly string[]>> = {
  ascii: ['invoice', 'ledger', 'parser', 'cache', 'migration', 'schema', 'retry', 'token', 'billing'],
  // Precomposed and combining accents (e\u0301 is two code units that render as one letter).
  accented: ['café', 'naïve', 'Ångström', 'résumé', 'e\u0301te\u0301', 'façade', 'Zürich'],
  cjk: ['缓存', '迁移', '解析器', '账本', '重试', '令牌', 'キャッシュ'],
  // Astral characters: each is a surrogate pair in UTF-16.
  emoji: ['🚀', '✅', '🧪', '📈', '🔥', '𠀀'],
};

const TOOLS = ['terminal', 'read_file', 'write_file', 'search_files', 'web_extract'] as const;
type Tool = (typeof TOOLS)[number];

/** A text to write: about `chars` UTF-16 units of words in `script`, starting at word `offset`. */
export interface Prose {
  readonly chars: number;
  readonly script: Script;
  readonly offset: number;
}

/** Words of `script` (every other one ASCII, as mixed-language text is) up to `chars` units. */
export function writeProse({ chars, script, offset }: Prose): string {
  const words = VOCABULARY[script];
  let text = '';
  for (let index = 0; text.length < chars; index++) {
    const word =
      index % 2 === 1 && script !== 'ascii'
        ? VOCABULARY.ascii[(offset + index) % VOCABULARY.ascii.length]!
        : words[(offset + index) % words.length]!;
    text += `${word} `;
  }
  // Cut on a code point, never inside a surrogate pair.
  return text.slice(0, chars).replace(/[\uD800-\uDBFF]$/, '');
}

/**
 * Mostly ASCII, as agent transcripts are; the other scripts often enough that most transcripts
 * hold some. (Non-ASCII text is also where counting is slowest, so it is not the majority.)
 */
const script: fc.Arbitrary<Script> = arbitraryWeighted<Script>([
  ['ascii', 7],
  ['accented', 1],
  ['cjk', 1],
  ['emoji', 1],
]);

/** Prose of `min`–`max` UTF-16 units in any script; shrinks to short ASCII. */
export const arbitraryProse = (min: number, max: number): fc.Arbitrary<Prose> =>
  fc.record({ chars: fc.integer({ min, max }), script, offset: fc.nat(20) });

/** One call of a tool round. */
interface RoundCall {
  /** It carries a Responses-API `call_id`, which its result answers. */
  readonly responsesId: boolean;
  /** Its result never came (an interrupted turn). Only in loose transcripts. */
  readonly unanswered: boolean;
}

/** One assistant message of parallel tool calls and (usually) a result for each. */
interface ToolRound {
  readonly tool: Tool;
  readonly calls: readonly RoundCall[];
  /** The assistant's words before the calls: none (`null`), empty, or some. */
  readonly preamble: Prose | '' | null;
  readonly result: Prose;
  /** The results start with a traceback (error lines for fidelity, failed commands). */
  readonly failing: boolean;
  /** The results are the same text every time (duplicate reads, repeated listings). */
  readonly repeated: boolean;
}

interface Turn {
  readonly topic: number;
  readonly ask: Prose;
  readonly rounds: readonly ToolRound[];
  readonly reply: Prose | null;
}

/** The parts of a loose transcript, in any order. */
type Segment =
  | { readonly kind: 'ask'; readonly text: Prose; readonly summary: boolean }
  | { readonly kind: 'reply'; readonly text: Prose | null }
  | { readonly kind: 'image' }
  | { readonly kind: 'tools'; readonly round: ToolRound };

export interface ArbitraryTranscript {
  readonly messages: Message[];
  /** Indices of the real user asks, in order (not the resumed summary). */
  readonly asks: readonly number[];
}

export interface TranscriptOptions {
  /** Turns of ask → tool rounds → reply; 2–24 unless given. */
  readonly minTurns?: number;
  readonly maxTurns?: number;
  /**
   * Summary prefixes a resumed session may open with (after the system prompt), as a session
   * continued from an earlier compaction does. None: never resumed.
   */
  readonly resumedFrom?: readonly string[];
  /** Some calls carry a Responses-API `call_id` that their result answers (2026-07 pairs by it). */
  readonly responsesCallIds?: boolean;
  /** The largest tool result, in UTF-16 units (6,000 unless given). */
  readonly maxResultChars?: number;
}

const RESULT_SIZES = (max: number) =>
  fc.oneof({ withCrossShrink: true }, arbitraryProse(5, 300), arbitraryProse(300, Math.max(300, max)));

/**
 * One of `choices`, each as often as its weight, shrinking towards the first (unlike a weighted
 * `fc.oneof` of constants, which cannot shrink from one constant to another).
 */
export function arbitraryWeighted<T>(choices: readonly (readonly [T, number])[]): fc.Arbitrary<T> {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  return fc.nat(total - 1).map((roll) => {
    for (const [value, weight] of choices) {
      if (roll < weight) return value;
      roll -= weight;
    }
    return choices.at(-1)![0];
  });
}

/** True one time in `n`; shrinks to false. */
const oneIn = (n: number): fc.Arbitrary<boolean> =>
  arbitraryWeighted([
    [false, n - 1],
    [true, 1],
  ]);

function toolRound(options: {
  responsesCallIds: boolean;
  interrupted: boolean;
  result: fc.Arbitrary<Prose>;
}): fc.Arbitrary<ToolRound> {
  const call: fc.Arbitrary<RoundCall> = fc.record({
    responsesId: options.responsesCallIds ? fc.boolean() : fc.constant(false),
    // One result in twenty missing, as in interrupted sessions.
    unanswered: options.interrupted ? oneIn(20) : fc.constant(false),
  });
  return fc.record({
    tool: fc.constantFrom(...TOOLS),
    calls: fc.array(call, { minLength: 1, maxLength: 3 }),
    preamble: fc.oneof(
      { withCrossShrink: true },
      fc.constant(null),
      fc.constant('' as const),
      arbitraryProse(1, 200),
    ),
    result: options.result,
    failing: fc.boolean(),
    repeated: oneIn(10),
  });
}

/** Builds messages, numbering calls across the whole transcript so every id is unique. */
class TranscriptWriter {
  readonly messages: Message[] = [];
  readonly asks: number[] = [];
  private nextCall = 0;

  system(text: string): void {
    this.messages.push({ role: 'system', content: text });
  }

  ask(content: Message['content']): void {
    this.asks.push(this.messages.length);
    this.messages.push({ role: 'user', content });
  }

  push(message: Message): void {
    this.messages.push(message);
  }

  toolRound(round: ToolRound, topic: number): void {
    const calls: ToolCall[] = [];
    for (const [index, shape] of round.calls.entries()) {
      const id = `call_${this.nextCall++}`;
      const path = `src/module_${topic}_${index}.py`;
      const args =
        round.tool === 'terminal'
          ? { command: `pytest tests/test_${topic}.py -k case_${index}` }
          : round.tool === 'write_file'
            ? { path, content: `def handle_${topic}_${index}():\n    return "${writeProse(round.result)}"\n` }
            : round.tool === 'web_extract'
              ? { url: `https://docs.example.com/${topic}/page-${index}` }
              : { path };
      const call: ToolCall = {
        id,
        type: 'function',
        function: { name: round.tool, arguments: JSON.stringify(args) },
      };
      if (shape.responsesId) call.call_id = `resp_${id}`;
      calls.push(call);
    }
    const preamble =
      round.preamble === null || round.preamble === '' ? round.preamble : writeProse(round.preamble);
    this.messages.push({ role: 'assistant', content: preamble, tool_calls: calls });
    calls.forEach((call, index) => {
      if (round.calls[index]!.unanswered) return;
      const error = round.failing ? `Traceback (most recent call last):\nValueError: bad ${call.id}\n` : '';
      const body = round.repeated ? 'same output '.repeat(40) : writeProse(round.result);
      this.messages.push({ role: 'tool', tool_call_id: call.call_id ?? call.id, content: `${error}${body}` });
    });
  }
}

const topicWord = (topic: number): string => VOCABULARY.ascii[topic % VOCABULARY.ascii.length]!;

/** The text of turn `index`'s ask: unique per turn, naming a file, with more words after it. */
function askText(index: number, turn: Turn): string {
  const more = turn.ask.chars > 0 ? ` ${writeProse(turn.ask)}` : '';
  return `Turn ${index}: please fix the ${topicWord(turn.topic)} bug in src/module_${turn.topic}.py and run the tests.${more}`;
}

const systemPrompt = fc.option(arbitraryProse(0, 400), { freq: 2 });

/**
 * Agent sessions in turns: an optional system prompt, an optional resumed summary, then turns
 * of a user ask, 0–4 tool rounds of 1–3 parallel calls each, and usually a reply.
 */
export function arbitraryTranscript(options: TranscriptOptions = {}): fc.Arbitrary<ArbitraryTranscript> {
  const round = toolRound({
    responsesCallIds: options.responsesCallIds ?? false,
    interrupted: false,
    result: RESULT_SIZES(options.maxResultChars ?? 6000),
  });
  const turn: fc.Arbitrary<Turn> = fc.record({
    topic: fc.nat(50),
    ask: arbitraryProse(0, 800),
    rounds: fc.array(round, { maxLength: 4 }),
    reply: fc.option(arbitraryProse(10, 1500), { freq: 6 }),
  });
  const resumedFrom = options.resumedFrom ?? [];
  return fc
    .record({
      system: systemPrompt,
      resumed:
        resumedFrom.length > 0 ? fc.option(fc.constantFrom(...resumedFrom), { freq: 5 }) : fc.constant(null),
      turns: fc.array(turn, { minLength: options.minTurns ?? 2, maxLength: options.maxTurns ?? 24 }),
    })
    .map(({ system, resumed, turns }) => {
      const writer = new TranscriptWriter();
      if (system) writer.system(`You are a careful coding agent. ${writeProse(system)}`.trim());
      if (resumed !== null)
        writer.push({
          role: 'user',
          content: `${resumed} Earlier we migrated the billing schema; tests pass.`,
        });
      turns.forEach((current, index) => {
        writer.ask(askText(index, current));
        for (const round of current.rounds) writer.toolRound(round, current.topic);
        if (current.reply)
          writer.push({
            role: 'assistant',
            content: `I'll use the ${topicWord(current.topic)} fix. ${writeProse(current.reply)}`,
          });
      });
      return { messages: writer.messages, asks: writer.asks };
    });
}

/** Text sizes of loose transcripts: mostly short, some long, a few tens of thousands. */
const looseText: fc.Arbitrary<Prose> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: arbitraryProse(0, 200), weight: 60 },
  { arbitrary: arbitraryProse(0, 3000), weight: 37 },
  { arbitrary: arbitraryProse(20_000, 60_000), weight: 3 },
);

/**
 * Messages in any order, for the boundary planner and pruning: users (a few of them earlier
 * summaries), assistants with or without text, images, tool rounds with results missing.
 */
export function arbitraryLooseTranscript(
  options: { maxSegments?: number; summaryPrefix?: string } = {},
): fc.Arbitrary<ArbitraryTranscript> {
  const segment: fc.Arbitrary<Segment> = fc.oneof(
    { withCrossShrink: true },
    {
      arbitrary: fc.record({
        kind: fc.constant('ask' as const),
        text: looseText,
        summary: oneIn(20),
      }),
      weight: 25,
    },
    {
      arbitrary: fc.record({ kind: fc.constant('reply' as const), text: fc.option(looseText, { freq: 6 }) }),
      weight: 20,
    },
    { arbitrary: fc.constant({ kind: 'image' as const }), weight: 5 },
    {
      arbitrary: fc.record({
        kind: fc.constant('tools' as const),
        round: toolRound({ responsesCallIds: false, interrupted: true, result: looseText }),
      }),
      weight: 50,
    },
  );
  const summaryPrefix = options.summaryPrefix ?? '[CONTEXT SUMMARY]:';
  return fc
    .record({
      system: fc.nat(4).map((roll) => roll < 4),
      segments: fc.array(segment, { maxLength: options.maxSegments ?? 30 }),
    })
    .map(({ system, segments }) => {
      const writer = new TranscriptWriter();
      if (system) writer.system('You are an agent.');
      segments.forEach((part, index) => {
        switch (part.kind) {
          case 'ask':
            if (part.summary)
              writer.push({ role: 'user', content: `${summaryPrefix} ${writeProse(part.text)}` });
            else writer.ask(writeProse(part.text));
            return;
          case 'reply':
            writer.push({ role: 'assistant', content: part.text === null ? null : writeProse(part.text) });
            return;
          case 'image':
            writer.ask([
              { type: 'text', text: 'see' },
              { type: 'image_url', image_url: { url: 'data:AAAA' } },
            ]);
            return;
          case 'tools':
            writer.toolRound(part.round, index);
            return;
          default:
            assertNever(part);
        }
      });
      return { messages: writer.messages, asks: writer.asks };
    });
}
