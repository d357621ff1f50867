// Writes a generated agent transcript to a file, for benchmarks and import tests.
//
//   npx tsx tests/bench/write-transcript.ts --messages 10000 --seed 1 --format openai --out /tmp/t.json
//   npx tsx tests/bench/write-transcript.ts --format claude-code --megabytes 100 --out /tmp/t.jsonl
//
// --megabytes (Claude Code only) keeps appending generated sessions of --messages messages
// (seeds seed, seed+1, …) as one continuing conversation until the file holds that many MiB,
// then stops before the next user prompt, so no tool call is left without its result.
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { claudeCodeJsonlLines, claudeCodeRecordUuid } from '#core/demo/write-claude-code-jsonl.ts';
import { toOpenAiChatJson } from '#core/demo/write-openai-json.ts';

const BYTES_PER_MEBIBYTE = 1024 * 1024;
/** Lines are gathered into chunks of about this size before each write. */
const WRITE_CHUNK_BYTES = 4 * BYTES_PER_MEBIBYTE;
const SESSION_START_ISO = '2025-01-14T09:00:00.000Z';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    format: { type: 'string', default: 'openai' },
    out: { type: 'string' },
    megabytes: { type: 'string' },
  },
});

const messageCount = Number(values.messages);
const seed = Number(values.seed);
const out = values.out;
if (!out || !Number.isInteger(messageCount) || messageCount < 0 || !Number.isInteger(seed)) {
  console.error(
    'usage: write-transcript.ts --out FILE [--messages N] [--seed S] [--format openai|claude-code] [--megabytes M]',
  );
  process.exit(2);
}
if (values.format !== 'openai' && values.format !== 'claude-code') {
  console.error(`unknown --format ${values.format}; use openai or claude-code`);
  process.exit(2);
}
if (values.megabytes !== undefined && values.format !== 'claude-code') {
  console.error('--megabytes is only supported with --format claude-code');
  process.exit(2);
}

const started = performance.now();
let writtenMessages = 0;
let writtenBytes = 0;

if (values.format === 'openai') {
  const transcript = generateAgentTranscript({ messageCount, seed });
  const json = toOpenAiChatJson(transcript);
  writeFileSync(out, json);
  writtenMessages = transcript.messages.length;
  writtenBytes = Buffer.byteLength(json);
} else {
  const targetBytes =
    values.megabytes === undefined ? undefined : Number(values.megabytes) * BYTES_PER_MEBIBYTE;
  const sessionId = sessionIdFor(seed);
  const file = openSync(out, 'w');
  let chunk: string[] = [];
  let chunkBytes = 0;
  const flush = (): void => {
    if (chunk.length === 0) return;
    writeSync(file, chunk.join(''));
    chunk = [];
    chunkBytes = 0;
  };
  let recordIndex = 0;
  let done = false;
  for (let part = 0; !done; part++) {
    const transcript = generateAgentTranscript({ messageCount, seed: seed + part });
    const lines = claudeCodeJsonlLines(transcript, {
      sessionId,
      startIso: SESSION_START_ISO,
      firstRecordIndex: recordIndex,
      parentUuid: recordIndex === 0 ? null : claudeCodeRecordUuid(sessionId, recordIndex - 1),
    });
    for (const line of lines) {
      const isPrompt = line.startsWith('{"type":"user"') && !line.includes('"type":"tool_result"');
      if (targetBytes !== undefined && writtenBytes >= targetBytes && isPrompt) {
        done = true;
        break;
      }
      const bytes = Buffer.byteLength(line) + 1;
      chunk.push(line, '\n');
      chunkBytes += bytes;
      writtenBytes += bytes;
      recordIndex++;
      if (chunkBytes >= WRITE_CHUNK_BYTES) flush();
    }
    writtenMessages += transcript.messages.length;
    if (targetBytes === undefined || messageCount === 0) done = true;
  }
  flush();
  closeSync(file);
}

const seconds = (performance.now() - started) / 1000;
console.log(
  `wrote ${out}: ${values.format}, ${writtenMessages} generated messages, ${(writtenBytes / BYTES_PER_MEBIBYTE).toFixed(1)} MiB in ${seconds.toFixed(1)} s`,
);

/** A stable, UUID-shaped session id per seed. */
function sessionIdFor(sessionSeed: number): string {
  const hex = (sessionSeed >>> 0).toString(16).padStart(8, '0');
  return `c0ffee00-0000-4000-8000-${hex.padStart(12, '0')}`;
}
