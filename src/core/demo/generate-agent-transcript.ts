import type { Message, ToolCall } from '../transcript/message.ts';
import type { Transcript } from '../transcript/transcript.ts';
import { assertNever } from '../shared/assert-never.ts';
import { safeParseJson } from '../shared/safe-parse-json.ts';
import { getAgentContentPools, type AgentContentPools, type VirtualFile } from './agent-content-pools.ts';
import {
  assistantLeadIns,
  assistantSummaries,
  codeComments,
  searchPatterns,
  terminalCommands,
  userAsks,
  webHits,
  webQueries,
} from './agent-phrases.ts';
import { randomToolCallId } from './anthropic-ids.ts';
import { demoSystemPrompt } from './demo-system-prompt.ts';
import { demoToolSchemas, webSearchToolSchema } from './demo-tool-schemas.ts';
import { escapeJsonString, lineAtOffset, sliceLines } from './escaped-text.ts';
import { webSearchResult } from './hermes-tool-results.ts';
import { toPythonJson } from './python-json.ts';
import { createSeededRandom, type SeededRandom } from './seeded-random.ts';

export interface GenerateAgentTranscriptOptions {
  /** Exact number of messages, system prompt included. */
  messageCount: number;
  seed: number;
}

// The content mix. Tuned so that 10,000 messages come to about 25 MB of JSON (~6M tokens),
// the scale of the performance targets in SPEC §7; the unit tests hold that to ±20%.

/** Share of tool results that are 100 KB dumps (build logs, database dumps): about 1 in 200. */
const HUGE_RESULT_PROBABILITY = 1 / 200;
const HUGE_RESULT_CHARACTERS = 100_000;
/** Share of read_file calls that read exactly what an earlier call read (dedupe material). */
const REPEATED_READ_PROBABILITY = 0.1;
/** How many earlier reads a repeated read may pick from. */
const REMEMBERED_READS = 24;
const TOOL_STEPS_PER_TURN = { min: 2, max: 16 } as const;

const TOOL_WEIGHTS: readonly (readonly [ToolName, number])[] = [
  ['terminal', 34],
  ['read_file', 27],
  ['search_files', 11],
  ['patch', 12],
  ['write_file', 8],
  ['web_search', 8],
];

type ToolName = 'terminal' | 'read_file' | 'search_files' | 'patch' | 'write_file' | 'web_search';

const TOTAL_TOOL_WEIGHT = TOOL_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
const TERMINAL_SHARE = (TOOL_WEIGHTS.find(([name]) => name === 'terminal')?.[1] ?? 0) / TOTAL_TOOL_WEIGHT;

interface GeneratedCall {
  name: ToolName;
  /** JSON arguments, already serialised. */
  argumentsText: string;
  result: string;
}

interface GenerationContext {
  readonly random: SeededRandom;
  readonly pools: AgentContentPools;
  readonly recentReads: GeneratedCall[];
}

const SHORT_TERMINAL_OUTPUTS: readonly string[] = [
  '',
  ' M app/crud.py\n M tests/test_api.py\n?? tests/test_export.py\n',
  'All checks passed!\n',
  'Success: no issues found in 9 source files\n',
  '{"status":"ok","version":"0.1.0","database":"ok"}\n',
  'Already up to date.\n',
  'NAME      IMAGE          COMMAND                  SERVICE   CREATED        STATUS        PORTS\napi       api:dev        "uvicorn app.main:ap…"   api       2 hours ago    Up 2 hours    0.0.0.0:8000->8000/tcp\ndb        postgres:16    "docker-entrypoint.s…"   db        2 hours ago    Up 2 hours    5432/tcp\n',
  '3 files changed, 41 insertions(+), 12 deletions(-)\n',
].map(escapeJsonString);

/**
 * A realistic, deterministic agent session for benchmarks and tests: a system prompt, user
 * asks, assistant turns calling terminal, read_file, search_files, write_file, patch and
 * web_search (sometimes 2–3 calls at once), results from one-line acknowledgements to 20 KB
 * logs and files, about one 100 KB output per 200 results, and some files read twice.
 *
 * Exactly `messageCount` messages; the transcript never ends inside a tool group. Pure: the
 * same options always give the same transcript.
 *
 * @example generateAgentTranscript({ messageCount: 10_000, seed: 1 }) // ≈ 25 MB of JSON
 */
export function generateAgentTranscript(options: GenerateAgentTranscriptOptions): Transcript {
  const { messageCount, seed } = options;
  if (!Number.isInteger(messageCount) || messageCount < 0) {
    throw new RangeError(`messageCount must be a non-negative integer, got ${messageCount}`);
  }
  const context: GenerationContext = {
    random: createSeededRandom(seed),
    pools: getAgentContentPools(),
    recentReads: [],
  };
  const { random } = context;
  const messages: Message[] = [];
  if (messageCount > 0) messages.push({ role: 'system', content: demoSystemPrompt });

  let awaitingUser = true;
  let toolStepsLeft = 0;
  while (messages.length < messageCount) {
    const remaining = messageCount - messages.length;
    if (awaitingUser) {
      messages.push({ role: 'user', content: userAsk(context) });
      awaitingUser = false;
      toolStepsLeft = random.integer(TOOL_STEPS_PER_TURN.min, TOOL_STEPS_PER_TURN.max);
    } else if (toolStepsLeft <= 0 || remaining < 2) {
      messages.push({ role: 'assistant', content: random.pick(assistantSummaries) });
      awaitingUser = true;
    } else {
      // A tool group is the assistant message plus one result per call; it must fit whole.
      const callCount = Math.min(parallelCallCount(random), remaining - 1);
      pushToolGroup(messages, context, callCount);
      toolStepsLeft--;
    }
  }

  return {
    messages,
    metadata: {
      format: 'internal',
      title: `Generated agent session (seed ${seed}, ${messageCount} messages)`,
      model: 'claude-sonnet-4-6',
      systemPrompt: demoSystemPrompt,
      tools: [...demoToolSchemas, webSearchToolSchema],
      compactionPoints: [],
    },
  };
}

function parallelCallCount(random: SeededRandom): number {
  const draw = random.next();
  return draw < 0.72 ? 1 : draw < 0.92 ? 2 : 3;
}

function pushToolGroup(messages: Message[], context: GenerationContext, callCount: number): void {
  const calls: GeneratedCall[] = [];
  for (let index = 0; index < callCount; index++) calls.push(generateCall(context, pickTool(context.random)));
  const toolCalls: ToolCall[] = calls.map((call) => ({
    id: randomToolCallId(context.random),
    type: 'function',
    function: { name: call.name, arguments: call.argumentsText },
  }));
  messages.push({ role: 'assistant', content: context.random.pick(assistantLeadIns), tool_calls: toolCalls });
  calls.forEach((call, index) => {
    messages.push({
      role: 'tool',
      tool_call_id: toolCalls[index]?.id ?? '',
      name: call.name,
      content: call.result,
    });
  });
}

function pickTool(random: SeededRandom): ToolName {
  let draw = random.next() * TOTAL_TOOL_WEIGHT;
  for (const [name, weight] of TOOL_WEIGHTS) {
    draw -= weight;
    if (draw < 0) return name;
  }
  return 'terminal';
}

function generateCall(context: GenerationContext, name: ToolName): GeneratedCall {
  switch (name) {
    case 'terminal':
      return terminalCall(context);
    case 'read_file':
      return readFileCall(context);
    case 'search_files':
      return searchFilesCall(context);
    case 'patch':
      return patchCall(context);
    case 'write_file':
      return writeFileCall(context);
    case 'web_search':
      return webSearchCall(context);
    default:
      return assertNever(name);
  }
}

function terminalCall(context: GenerationContext): GeneratedCall {
  const { random } = context;
  const command = random.pick(terminalCommands);
  const draw = random.next();
  let output: string;
  // Only terminal produces huge outputs, so its own rate is scaled up by its share of calls.
  if (draw < HUGE_RESULT_PROBABILITY / TERMINAL_SHARE) output = logSlice(context, HUGE_RESULT_CHARACTERS);
  else if (draw < 0.3) output = random.pick(SHORT_TERMINAL_OUTPUTS);
  else if (draw < 0.75) output = logSlice(context, random.integer(600, 4_000));
  else output = logSlice(context, random.integer(3_500, 14_000));
  const failed = output.includes('FAILED') || output.includes('Error');
  const exitCode = failed ? 1 : 0;
  return {
    name: 'terminal',
    argumentsText: `{"command": "${escapeJsonString(command)}"}`,
    result: `{"output": "${output}", "exit_code": ${exitCode}, "error": null}`,
  };
}

/** About `characters` of log, starting where a command's output starts (or, sometimes, anywhere). */
function logSlice(context: GenerationContext, characters: number): string {
  const { random, pools } = context;
  const { logs } = pools;
  const start = random.chance(0.6) ? random.pick(pools.logStarts) : random.integer(0, logs.lineCount - 1);
  const end = lineAtOffset(logs, (logs.lineStarts[start] ?? 0) + characters);
  return sliceLines(logs, start, Math.max(end, start + 1));
}

function readFileCall(context: GenerationContext): GeneratedCall {
  const { random, pools, recentReads } = context;
  if (recentReads.length > 0 && random.chance(REPEATED_READ_PROBABILITY)) return random.pick(recentReads);
  const file = random.pick(pools.files);
  const whole = random.chance(0.35);
  const start = whole ? 0 : random.integer(0, Math.max(0, file.numbered.lineCount - 40));
  const end = whole ? file.numbered.lineCount : start + random.integer(30, 300);
  const slice = sliceLines(file.numbered, start, end);
  const argumentsText = whole
    ? `{"path": "${file.path}", "offset": 1}`
    : `{"path": "${file.path}", "offset": ${start + 1}, "limit": ${end - start}}`;
  const call: GeneratedCall = {
    name: 'read_file',
    argumentsText,
    result: `{"content": "${slice}", "total_lines": ${file.numbered.lineCount}, "file_size": ${file.byteLength}, "truncated": false, "is_binary": false, "is_image": false}`,
  };
  recentReads.push(call);
  if (recentReads.length > REMEMBERED_READS) recentReads.shift();
  return call;
}

function searchFilesCall(context: GenerationContext): GeneratedCall {
  const { random, pools } = context;
  const file = random.pick(pools.files);
  const directory = file.path.split('/').slice(0, 2).join('/');
  const matchCount = random.integer(0, 30);
  const lines = new Set<number>();
  for (let index = 0; index < matchCount; index++) lines.add(random.integer(0, file.source.lineCount - 1));
  const matches = [...lines]
    .sort((left, right) => left - right)
    .map(
      (line) =>
        `{"path": "${file.path}", "line": ${line + 1}, "content": "${sliceLines(file.source, line, line + 1)}"}`,
    );
  const pattern = escapeJsonString(random.pick(searchPatterns));
  return {
    name: 'search_files',
    argumentsText: `{"pattern": "${pattern}", "target": "content", "path": "${directory}", "file_glob": "*.py"}`,
    result: `{"total_count": ${matches.length}, "matches": [${matches.join(', ')}], "truncated": false}`,
  };
}

function patchCall(context: GenerationContext): GeneratedCall {
  const { random, pools } = context;
  const file = random.pick(pools.files);
  const start = random.integer(0, Math.max(0, file.source.lineCount - 4));
  const end = Math.min(file.source.lineCount, start + random.integer(3, 24));
  const oldString = sliceLines(file.source, start, end);
  const comment = escapeJsonString(`# ${random.pick(codeComments)}`);
  const newString = `${comment}\\n${oldString}`;
  const oldLines: string[] = [];
  for (let line = start; line < end; line++) oldLines.push(` ${sliceLines(file.source, line, line + 1)}`);
  const diff = [
    `--- a/${file.path}`,
    `+++ b/${file.path}`,
    `@@ -${start + 1},${end - start} +${start + 1},${end - start + 1} @@`,
    `+${comment}`,
    ...oldLines,
  ].join('\\n');
  return {
    name: 'patch',
    argumentsText: `{"mode": "replace", "path": "${file.path}", "old_string": "${oldString}", "new_string": "${newString}"}`,
    result: `{"success": true, "diff": "${diff}\\n", "files_modified": ["${file.path}"], "lint": {"status": "ok", "output": ""}}`,
  };
}

function writeFileCall(context: GenerationContext): GeneratedCall {
  const { random, pools } = context;
  const file = random.pick(pools.files);
  const lineCount = Math.min(file.source.lineCount, random.integer(20, 320));
  const content = sliceLines(file.source, 0, lineCount);
  const path = random.chance(0.5) ? file.path : file.path.replace(/(\.\w+)$/, `_${random.integer(2, 9)}$1`);
  return {
    name: 'write_file',
    argumentsText: `{"path": "${path}", "content": "${content}"}`,
    // Escapes make the escaped text a little longer than the file; close enough for a size.
    result: `{"bytes_written": ${content.length}, "dirs_created": false}`,
  };
}

function webSearchCall(context: GenerationContext): GeneratedCall {
  const { random } = context;
  const query = random.pick(webQueries);
  const first = random.integer(0, webHits.length - 1);
  const hits = Array.from({ length: 5 }, (_, index) => webHits[(first + index) % webHits.length]!);
  return {
    name: 'web_search',
    argumentsText: toPythonJson({ query }),
    result: webSearchResult(hits),
  };
}

function userAsk(context: GenerationContext): string {
  const { random, pools } = context;
  const file: VirtualFile = random.pick(pools.files);
  const ask = random
    .pick(userAsks)
    .replaceAll('{service}', random.pick(pools.services))
    .replaceAll('{file}', file.path);
  if (!random.chance(0.1)) return ask;
  // Sometimes the user pastes a log; the pool holds escaped text, so unescape the slice.
  const pasted = safeParseJson(`"${logSlice(context, random.integer(800, 4_000))}"`);
  return pasted.ok && typeof pasted.value === 'string' ? `${ask}\n\n\`\`\`\n${pasted.value}\n\`\`\`` : ask;
}
