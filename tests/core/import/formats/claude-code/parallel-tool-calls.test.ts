import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '#core/import/import-transcript.ts';

type ClaudeRecord = Record<string, unknown> & { uuid: string; parentUuid: string | null };

const SESSION = 'sess-parallel';

const userPrompt = (uuid: string, parentUuid: string | null, text: string): ClaudeRecord => ({
  type: 'user',
  uuid,
  parentUuid,
  sessionId: SESSION,
  message: { role: 'user', content: text },
});

const assistantBlock = (
  uuid: string,
  parentUuid: string,
  responseId: string,
  block: unknown,
): ClaudeRecord => ({
  type: 'assistant',
  uuid,
  parentUuid,
  sessionId: SESSION,
  message: { id: responseId, role: 'assistant', model: 'claude-sonnet-4-5', content: [block] },
});

const toolResult = (uuid: string, parentUuid: string, toolUseId: string): ClaudeRecord => ({
  type: 'user',
  uuid,
  parentUuid,
  sessionId: SESSION,
  message: {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: toolUseId, content: `output of ${toolUseId}` }],
  },
});

/**
 * How one prompt's API response is split into records and threaded, as plain choices fast-check
 * shrinks: optional thinking and text blocks, then 1–6 tool_use records; each block's parent is
 * any earlier record of the response (or the prompt), each result is the child of its own
 * tool_use record, the records appear in any order that keeps parents first, and the next
 * response continues from any one of the results. Choices are taken modulo what is available.
 */
interface Threading {
  readonly thinking: boolean;
  readonly text: boolean;
  readonly calls: number;
  /** Per block, which earlier record (or the prompt) it hangs from. */
  readonly parents: readonly number[];
  /** At each step, which of the records whose parent is placed comes next. */
  readonly order: readonly number[];
  /** Which result the next response continues from. */
  readonly continueFrom: number;
}

const arbitraryThreading: fc.Arbitrary<Threading> = fc.record({
  thinking: fc.boolean(),
  text: fc.boolean(),
  calls: fc.integer({ min: 1, max: 6 }),
  parents: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  order: fc.array(fc.nat(), { minLength: 14, maxLength: 14 }),
  continueFrom: fc.nat(),
});

interface GeneratedSession {
  records: ClaudeRecord[];
  toolUseIds: string[];
}

function threadSession(threading: Threading): GeneratedSession {
  const responseId = 'msg_parallel';
  const prompt = userPrompt('u1', null, 'Read the files and run the tests.');
  const response: ClaudeRecord[] = [];
  const parentFor = () => {
    const candidates = [prompt, ...response];
    return candidates[threading.parents[response.length]! % candidates.length]!.uuid;
  };
  if (threading.thinking)
    response.push(
      assistantBlock('think', parentFor(), responseId, {
        type: 'thinking',
        thinking: 'plan',
        signature: 's',
      }),
    );
  if (threading.text)
    response.push(assistantBlock('text', parentFor(), responseId, { type: 'text', text: 'Looking at it.' }));
  const toolUseIds: string[] = [];
  for (let index = 0; index < threading.calls; index += 1) {
    const id = `toolu_${index}`;
    toolUseIds.push(id);
    response.push(
      assistantBlock(`call${index}`, parentFor(), responseId, {
        type: 'tool_use',
        id,
        name: 'Read',
        input: { path: `f${index}` },
      }),
    );
  }
  const results = toolUseIds.map((id, index) => toolResult(`result${index}`, `call${index}`, id));
  const continuation = assistantBlock(
    'final',
    results[threading.continueFrom % results.length]!.uuid,
    'msg_next',
    { type: 'text', text: 'Done.' },
  );
  return {
    records: [prompt, ...inParentFirstOrder([...response, ...results], threading.order), continuation],
    toolUseIds,
  };
}

/** An order of the records in which every record comes after its parent, chosen by `order`. */
function inParentFirstOrder(records: ClaudeRecord[], order: readonly number[]): ClaudeRecord[] {
  const placed = new Set<string>(['u1']);
  const remaining = [...records];
  const ordered: ClaudeRecord[] = [];
  while (remaining.length > 0) {
    const ready = remaining.filter((record) => record.parentUuid === null || placed.has(record.parentUuid));
    const next = ready[order[ordered.length]! % ready.length]!;
    ordered.push(next);
    placed.add(next.uuid);
    remaining.splice(remaining.indexOf(next), 1);
  }
  return ordered;
}

const jsonl = (records: readonly unknown[]): string =>
  records.map((record) => JSON.stringify(record)).join('\n');

describe('Claude Code parallel tool calls', () => {
  it('keeps every tool_use and its result for any threading of records sharing a message.id', () => {
    fc.assert(
      fc.property(arbitraryThreading, (threading) => {
        const { records, toolUseIds } = threadSession(threading);
        const result = importTranscript(jsonl(records));
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const messages = result.value.transcript.messages;
        const calls = messages.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id));
        const answered = messages.flatMap((message) =>
          message.role === 'tool' ? [message.tool_call_id] : [],
        );
        expect(calls.sort()).toEqual([...toolUseIds].sort());
        expect(answered.sort()).toEqual([...toolUseIds].sort());
        // One response is one assistant message, then the next response's.
        expect(messages.filter((message) => message.role === 'assistant')).toHaveLength(2);
        expect(result.value.warnings.filter((warning) => /rewind/.test(warning.reason))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('still drops a real rewind: a prompt re-parented to an earlier point', () => {
    const records = [
      userPrompt('u0', null, 'Context: a list of numbers.'),
      userPrompt('u1', 'u0', 'Sort the list.'),
      assistantBlock('a1', 'u1', 'msg_1', { type: 'tool_use', id: 'toolu_old', name: 'Read', input: {} }),
      toolResult('r1', 'a1', 'toolu_old'),
      assistantBlock('a2', 'r1', 'msg_2', { type: 'text', text: 'Quicksort it is.' }),
      // The user rewound to before "Sort the list." and asked again: a sibling prompt of u1.
      userPrompt('u2', 'u0', 'Sort the list, stable please.'),
      assistantBlock('b1', 'u2', 'msg_3', { type: 'tool_use', id: 'toolu_new', name: 'Read', input: {} }),
      toolResult('r2', 'b1', 'toolu_new'),
      assistantBlock('b2', 'r2', 'msg_4', { type: 'text', text: 'Mergesort it is.' }),
    ];
    const result = importTranscript(jsonl(records));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const texts = result.value.transcript.messages.map((message) =>
      message.role === 'tool'
        ? `tool:${String(message.tool_call_id)}`
        : `${message.role}:${JSON.stringify(message.content)}`,
    );
    expect(texts).toEqual([
      'user:"Context: a list of numbers."',
      'user:"Sort the list, stable please."',
      'assistant:""',
      'tool:toolu_new',
      'assistant:"Mergesort it is."',
    ]);
    expect(result.value.warnings.some((warning) => /rewind or fork/.test(warning.reason))).toBe(true);
  });

  it('never takes an interrupt notice threaded beside a tool result for a rewind', () => {
    // Esc during a tool call: Claude Code writes the refused result and the interrupt notice,
    // both children of the call; the next prompt continues from the result.
    const records = [
      userPrompt('u1', null, 'Delete the build folder.'),
      assistantBlock('a1', 'u1', 'msg_1', {
        type: 'tool_use',
        id: 'toolu_rm',
        name: 'Bash',
        input: { command: 'rm -rf build' },
      }),
      toolResult('r1', 'a1', 'toolu_rm'),
      userPrompt('i1', 'a1', '[Request interrupted by user for tool use]'),
      userPrompt('u2', 'r1', 'Only delete build/cache.'),
      assistantBlock('a2', 'u2', 'msg_2', { type: 'text', text: 'Deleting build/cache only.' }),
    ];
    const result = importTranscript(jsonl(records));
    expect(result.ok && result.value.transcript.messages.map((message) => message.content)).toContain(
      '[Request interrupted by user for tool use]',
    );
    expect(result.ok && result.value.warnings.filter((warning) => /rewind/.test(warning.reason))).toEqual([]);
  });
});
