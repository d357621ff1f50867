import { describe, expect, it } from 'vitest';
import { SUMMARY_PREFIX_2026_07 } from '#core/compression/markers.ts';
import { extractFacts } from '#core/fidelity/extract-facts.ts';
import type { Message } from '#core/transcript/message.ts';
import { shown } from './fact-sink.ts';

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

/** A small agent session with every kind of fact in it. */
const session: Message[] = [
  { role: 'system', content: 'You are a coding agent. Never touch /etc/passwd.' },
  {
    role: 'user',
    content:
      '<system-reminder>Be brief.</system-reminder>\nThe signup test fails on CI. Please fix it, see https://ci.example.com/run/42.',
  },
  {
    role: 'assistant',
    content: 'I’ll run the failing test first.',
    tool_calls: [call('c1', 'terminal', { command: 'cd /repo && pytest tests/test_signup.py -x' })],
  },
  {
    role: 'tool',
    tool_call_id: 'c1',
    content: JSON.stringify({
      output:
        'Traceback (most recent call last):\n  File "/repo/app/signup.py", line 14, in create_account\nKeyError: \'email\'\nFAILED tests/test_signup.py::test_signup_sends_mail',
      exit_code: 1,
      error: null,
    }),
  },
  {
    role: 'assistant',
    content:
      'The handler reads `payload["email"]` before validating. We will validate in `validate_payload()` first.',
    tool_calls: [
      call('c2', 'patch', {
        path: 'app/signup.py',
        old_string: 'def create_account(payload):\n    email = payload["email"]',
        new_string: 'def create_account(payload):\n    email = validate_payload(payload)["email"]',
      }),
    ],
  },
  { role: 'tool', tool_call_id: 'c2', content: '{"success": true}' },
  { role: 'user', content: '[Request interrupted by user]' },
  { role: 'user', content: 'Also bump the version in pyproject.toml.' },
];

describe('extractFacts', () => {
  it('extracts every kind from a session, in order of first appearance', () => {
    expect(shown(extractFacts(session, session.keys()))).toEqual([
      'ask: The signup test fails on CI',
      'url: https://ci.example.com/run/42',
      'decision: I’ll run the failing test first',
      'command: pytest tests/test_signup.py -x',
      'path: /repo/app/signup.py',
      "error: KeyError: 'email'",
      'path: tests/test_signup.py',
      'error: FAILED tests/test_signup.py::test_signup_sends_mail',
      'identifier: validate_payload()',
      'decision: We will validate in `validate_payload()` first',
      'path: app/signup.py',
      'identifier: create_account',
      'ask: Also bump the version in pyproject.toml',
      'path: pyproject.toml',
    ]);
  });

  it('reads only the messages asked for, and links each fact to its first message', () => {
    const facts = extractFacts(session, [7, 4, 4]);
    expect(facts.map((fact) => [fact.kind, fact.messageIndex])).toEqual([
      ['identifier', 4],
      ['decision', 4],
      ['path', 4],
      ['identifier', 4],
      ['ask', 7],
      ['path', 7],
    ]);
  });

  it('counts a fact said in several messages once, with how often it was said', () => {
    const facts = extractFacts(session, session.keys());
    const signup = facts.find((fact) => fact.text === '/repo/app/signup.py');
    expect(signup).toMatchObject({ messageIndex: 3, count: 1 });
    const relative = facts.find((fact) => fact.text === 'app/signup.py');
    expect(relative).toMatchObject({ messageIndex: 4, count: 1 });
  });

  it('takes no ask from a summary, but what it names is still at stake', () => {
    const summary: Message = {
      role: 'user',
      content: `${SUMMARY_PREFIX_2026_07}\n## Active Task\nFix \`create_account\` in app/signup.py.`,
    };
    expect(shown(extractFacts([summary], [0]))).toEqual([
      'path: app/signup.py',
      'identifier: create_account',
    ]);
  });

  it('does not read errors in the contents of a file that was read', () => {
    const messages: Message[] = [
      { role: 'assistant', content: '', tool_calls: [call('r1', 'read_file', { path: 'app/errors.py' })] },
      {
        role: 'tool',
        tool_call_id: 'r1',
        content: `class AppError(Exception):\n${'    pass\n'.repeat(400)}ValueError: not a failure`,
      },
      {
        role: 'tool',
        tool_call_id: 'r1',
        name: 'read_file',
        content: 'Error: file not found: app/missing.py',
      },
    ];
    expect(shown(extractFacts(messages, messages.keys()))).toEqual([
      'path: app/errors.py',
      'error: Error: file not found: app/missing.py',
    ]);
  });

  it('skips indices outside the list and system messages', () => {
    expect(extractFacts(session, [-1, 0, 99])).toEqual([]);
  });
});

describe('extractFacts on pathological input', () => {
  it('reads 10 MB strings in every place without stalling, finding what the windows hold', () => {
    const huge = 'x'.repeat(10_000_000);
    const dots = `${'.'.repeat(5_000_000)}a`;
    const messages: Message[] = [
      { role: 'user', content: `${'<system-reminder '.repeat(500_000)}fix it` },
      {
        role: 'assistant',
        content: `${huge}\nI'll keep going.`,
        tool_calls: [call('c1', 'write_file', { path: dots, content: huge, command: `${huge}\nls` })],
      },
      { role: 'tool', tool_call_id: 'c1', content: `ValueError: first\n${huge}\nKeyError: last` },
    ];
    // The first sentence of the user text (an unclosed tag is no wrapper), the assistant's
    // closing decision, the start of the command and both ends of the result are inside the
    // scanned windows; the rest of each 10 MB string is not read, and the 5 MB path is no path.
    expect(shown(extractFacts(messages, messages.keys()))).toEqual([
      `ask: ${'<system-reminder '.repeat(9).trim()}`,
      "decision: I'll keep going",
      `command: ${'x'.repeat(160)}`,
      'error: ValueError: first',
      'error: KeyError: last',
    ]);
  });
});
