import { describe, expect, it } from 'vitest';
import { extractFacts } from '#core/fidelity/extract-facts.ts';
import { FACT_KINDS } from '#core/fidelity/fact.ts';
import { measureFidelity } from '#core/fidelity/measure-fidelity.ts';
import type { Message } from '#core/transcript/message.ts';

const messages: Message[] = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: 'Make the export endpoint stream CSV.' },
  {
    role: 'assistant',
    content: 'Looking at it.',
    tool_calls: [
      {
        id: 'c1',
        type: 'function',
        function: { name: 'Bash', arguments: '{"command":"pytest -q tests/test_export.py"}' },
      },
    ],
  },
  {
    role: 'tool',
    tool_call_id: 'c1',
    content:
      'FAILED tests/test_export.py::test_streams_rows\nE   TypeError: object of type generator has no len()',
  },
  { role: 'assistant', content: 'Decided to use a StreamingResponse in app/export.py.' },
  { role: 'user', content: 'Looks good, now add a test for empty tables.' },
];

describe('measureFidelity', () => {
  // Messages 1–4 are summarised; message 5 is kept.
  const facts = extractFacts(messages, [1, 2, 3, 4]);

  it('scores the facts a summary mentions against those it leaves out, per kind', () => {
    const summary =
      'Summary: the user asked to make the export endpoint stream CSV. Ran `pytest -q tests/test_export.py`; ' +
      'tests/test_export.py::test_streams_rows failed with TypeError: object of type generator has no len().';
    const report = measureFidelity(facts, {
      messages: [messages[0]!, { role: 'user', content: summary }, messages[5]!],
    });
    // Facts (from the rules): ask, command, path tests/test_export.py, the failing node id, the
    // TypeError, the decision, identifier StreamingResponse, path app/export.py.
    expect(facts.map((fact) => fact.kind).sort()).toEqual(
      ['ask', 'command', 'decision', 'error', 'error', 'identifier', 'path', 'path'].sort(),
    );
    expect(report.lost.map((fact) => fact.display).sort()).toEqual([
      'Decided to use a StreamingResponse in app/export.py',
      'StreamingResponse',
      'app/export.py',
    ]);
    expect(report).toMatchObject({ total: 8, survived: 5, score: 5 / 8 });
    expect(report.byKind.error).toEqual({ total: 2, survived: 2, score: 1 });
    expect(report.byKind.path).toEqual({ total: 2, survived: 1, score: 0.5 });
    expect(report.byKind.decision).toEqual({ total: 1, survived: 0, score: 0 });
    expect(report.byKind.url).toEqual({ total: 0, survived: 0, score: 1 });
    expect(Object.keys(report.byKind)).toEqual([...FACT_KINDS]);
  });

  it('links every lost fact to the message it came from', () => {
    const report = measureFidelity(facts, { messages: [] });
    expect(report.lost.map((fact) => fact.messageIndex)).toEqual([1, 2, 3, 3, 3, 4, 4, 4]);
    expect(report.score).toBe(0);
  });

  it('counts text shown outside the messages as visible', () => {
    const report = measureFidelity(facts, { messages: [], texts: facts.map((fact) => fact.display) });
    expect(report.score).toBe(1);
  });

  it('scores 1 when there was nothing to lose', () => {
    expect(measureFidelity([], { messages: [] })).toMatchObject({
      score: 1,
      total: 0,
      survived: 0,
      lost: [],
    });
  });
});
