/**
 * Generated agent sessions with the awkward material real transcripts carry mixed in, seeded so
 * the same options always give the same messages: non-ASCII text (accents, CJK, emoji as
 * surrogate pairs, a lone surrogate, non-printable and control characters), secrets in tool
 * output and user text, images (part lists with data and http URLs, `_multimodal` envelopes,
 * Anthropic block stashes), huge and odd tool-call arguments (50 KB writes, floats and big
 * integers, malformed JSON), reasoning blocks, media directives and persistence markers.
 *
 * `raising` also gives one old terminal call a numeric command, on which 2026-04 Hermes'
 * one-liner raises (its compress() then compacts nothing).
 */
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { createSeededRandom, type SeededRandom } from '#core/demo/seeded-random.ts';
import type { Message, ToolCall } from '#core/transcript/message.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

export interface SpicedTranscriptOptions {
  readonly messageCount: number;
  readonly seed: number;
  /** Give one early terminal call a non-string command (2026-04's one-liner raises on it). */
  readonly raising?: boolean;
  /** Cap every text body at this many characters (small, readable fixtures). */
  readonly maxTextChars?: number;
}

const NON_ASCII = [
  'café — naïve résumé → ✓',
  '日本語のテキストと中文字符',
  'emoji 😀🚀 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math letters',
  'non-breaking\u00a0space, zero\u200bwidth, line\u2028separator',
  'bell \u0007 escape \u001b[31mred\u001b[0m',
  'lone high surrogate \ud83d here',
  'Ελληνικά και кириллица',
  'quote mix: it\'s "double" and \\backslash\\',
];

const SECRETS = [
  'OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234567890',
  'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4f2\n-----END RSA PRIVATE KEY-----',
  'DATABASE_URL=postgres://admin:hunter2secret@db.internal:5432/app',
  'callback https://example.com/cb?code=abc123def456&state=xyz',
  '{"api_key": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}',
  'bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_abcdef',
  'aws AKIAIOSFODNN7EXAMPLE and token=xoxb-123456789012-abcdefghijkl',
  'git clone https://ci-user:glpat-abcdefghij1234567890@gitlab.com/x/y.git',
];

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64Blob(random: SeededRandom, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += BASE64_ALPHABET[random.integer(0, 63)];
  return text;
}

function insertAt(random: SeededRandom, text: string, insert: string): string {
  const at = random.integer(0, text.length);
  return `${text.slice(0, at)} ${insert} ${text.slice(at)}`;
}

function cap(text: string, max: number | undefined): string {
  return max === undefined || text.length <= max ? text : text.slice(0, max);
}

function hugeWriteArguments(random: SeededRandom): string {
  const lines: string[] = [];
  const count = random.integer(600, 1400);
  for (let index = 0; index < count; index++)
    lines.push(
      index % 97 === 0
        ? `    # ${random.pick(NON_ASCII)}`
        : `    value_${index} = compute("${base64Blob(random, 24)}", ${index})`,
    );
  return JSON.stringify({ path: `src/generated_${random.integer(1, 999)}.py`, content: lines.join('\n') });
}

/** Adds `"timeout": 30.0` and a big integer to a JSON object text, or breaks its JSON. */
function oddArguments(random: SeededRandom, args: string): string {
  if (!args.endsWith('}')) return args;
  if (random.chance(0.3)) return args.slice(0, -1);
  const body = args.slice(0, -1);
  const extra = `"timeout": 30.0, "budget": 1e3, "id": 123456789012345678901, "ratio": -0.5`;
  return body.trim().endsWith('{') ? `${body}${extra}}` : `${body}, ${extra}}`;
}

function spiceToolResult(random: SeededRandom, message: Message, max: number | undefined): Message {
  const content = message.content;
  if (typeof content !== 'string') return message;
  let text = cap(content, max);
  if (random.chance(0.06)) text = `${text}\n${random.pick(SECRETS)}\n`;
  if (random.chance(0.06)) text = insertAt(random, text, random.pick(NON_ASCII));
  if (random.chance(0.02)) {
    return {
      ...message,
      content: [
        { type: 'text', text: cap(text, 300) },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${base64Blob(random, 3000)}` } },
      ],
    };
  }
  if (random.chance(0.01)) {
    return {
      ...message,
      content: {
        _multimodal: true,
        content: [
          { type: 'text', text: 'Screenshot of the dashboard ✓' },
          { type: 'image', source: { type: 'base64', data: base64Blob(random, 2000) } },
        ],
        text_summary: `Screenshot: ${cap(text, 260)}`,
      },
    };
  }
  return { ...message, content: text };
}

function spiceCalls(random: SeededRandom, message: Message): Message {
  if (!Array.isArray(message.tool_calls)) return message;
  let changed = false;
  const calls = message.tool_calls.map((call): ToolCall => {
    if (call.function.name === 'write_file' && random.chance(0.15)) {
      changed = true;
      return { ...call, function: { ...call.function, arguments: hugeWriteArguments(random) } };
    }
    if (call.function.name !== 'terminal' && random.chance(0.03)) {
      changed = true;
      return {
        ...call,
        function: { ...call.function, arguments: oddArguments(random, call.function.arguments) },
      };
    }
    return call;
  });
  return changed ? { ...message, tool_calls: calls } : message;
}

function spiceText(random: SeededRandom, message: Message, max: number | undefined): Message {
  const content = message.content;
  if (typeof content !== 'string') return message;
  let text = cap(content, max);
  if (random.chance(0.06)) text = insertAt(random, text, random.pick(NON_ASCII));
  if (message.role === 'user') {
    if (random.chance(0.02)) text = `${text}\nmy key is ${random.pick(SECRETS)}`;
    if (random.chance(0.02))
      return {
        ...message,
        content: [
          { type: 'text', text },
          { type: 'image_url', image_url: { url: 'https://example.com/screens/failing-test.png' } },
        ],
      };
  } else {
    if (random.chance(0.03)) text = `<think>Checking ${random.pick(NON_ASCII)} first.</think>${text}`;
    if (random.chance(0.01)) text = `${text}\nMEDIA:/tmp/chart-${random.integer(1, 99)}.png`;
    if (random.chance(0.01))
      return {
        ...message,
        content: text,
        _anthropic_content_blocks: [
          { type: 'text', text },
          { type: 'image', source: { type: 'base64', data: base64Blob(random, 800) } },
        ],
      };
  }
  return { ...message, content: text };
}

/** Caps the text of arguments too, so the small fixtures stay small. */
function capArguments(message: Message, max: number | undefined): Message {
  if (max === undefined || !Array.isArray(message.tool_calls)) return message;
  return {
    ...message,
    tool_calls: message.tool_calls.map((call) => {
      const args = call.function.arguments;
      if (args.length <= max) return call;
      return {
        ...call,
        function: {
          ...call.function,
          arguments: JSON.stringify({ path: 'src/big.py', content: cap(args, max) }),
        },
      };
    }),
  };
}

export function spicedAgentTranscript(options: SpicedTranscriptOptions): Transcript {
  const base = generateAgentTranscript({ messageCount: options.messageCount, seed: options.seed });
  const random = createSeededRandom(options.seed * 7919 + 17);
  const max = options.maxTextChars;
  const messages = base.messages.map((original, index): Message => {
    let message = original;
    if (index === 0 && message.role === 'system') return message;
    if (message.role === 'tool') message = spiceToolResult(random, message, max);
    else if (message.role === 'assistant' && Array.isArray(message.tool_calls))
      message = capArguments(spiceCalls(random, message), max);
    else message = spiceText(random, message, max);
    if (random.chance(0.01)) message = { ...message, _db_persisted: true };
    return message;
  });
  if (options.raising) giveNumericCommand(messages);
  return { ...base, messages };
}

/** The first long terminal result after message 20 gets a call whose command is a number. */
function giveNumericCommand(messages: Message[]): void {
  for (let index = 21; index < messages.length; index++) {
    const result = messages[index]!;
    if (result.role !== 'tool' || typeof result.content !== 'string' || result.content.length <= 400)
      continue;
    const callIndex = messages.findIndex(
      (message) => message.tool_calls?.some((call) => call.id === result.tool_call_id) ?? false,
    );
    const caller = messages[callIndex];
    const call = caller?.tool_calls?.find((candidate) => candidate.id === result.tool_call_id);
    if (!caller || call?.function.name !== 'terminal') continue;
    messages[callIndex] = {
      ...caller,
      tool_calls: caller.tool_calls!.map((candidate) =>
        candidate === call
          ? { ...call, function: { ...call.function, arguments: '{"command": 42}' } }
          : candidate,
      ),
    };
    return;
  }
  throw new Error('no long terminal result to give a numeric command');
}
