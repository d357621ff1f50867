import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractFacts, type MessageFactsCache } from '#core/fidelity/extract-facts.ts';
import type { Fact } from '#core/fidelity/fact.ts';
import { measureFidelity } from '#core/fidelity/measure-fidelity.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import type { Message } from '#core/transcript/message.ts';
import { shown } from './fact-sink.ts';

/** Real transcripts of other tools (see ../shared/corpus/transcripts/README.md). */
const corpusDir = resolve(import.meta.dirname, '../../../../shared/corpus/transcripts');

function load(path: string): Message[] {
  const result = importTranscript(readFileSync(resolve(corpusDir, path), 'utf8'));
  if (!result.ok) throw new Error(result.error.message);
  return result.value.transcript.messages;
}

/** Every transcript of the corpus, as its MANIFEST lists them. */
const corpusPaths = (
  JSON.parse(readFileSync(resolve(corpusDir, 'MANIFEST.json'), 'utf8')) as { path: string }[]
).map((entry) => entry.path);

const everything = (messages: readonly Message[]): Fact[] => extractFacts(messages, messages.keys());

// Expected facts below were read off the transcripts themselves (the tool calls, results and
// asks as recorded), not off the extractor's output.
describe('extractFacts on real transcripts', () => {
  it('Claude Code: a `!` shell command, its type errors, the ask and the fix', () => {
    const messages = load('claude-code/claude-code-log__326189cf-5676-4237-8cde-1ce80aae4a9f.jsonl');
    const facts = shown(everything(messages));
    // Line 1: the user ran `uv run ty check` from the prompt; its stdout lists the errors.
    expect(facts).toContain('command: uv run ty check');
    expect(facts).toContain('path: test/test_cache.py:203:20');
    expect(facts.filter((fact) => fact.startsWith('error: error[call-non-callable]:'))).toHaveLength(1);
    // Line 3: the only human request.
    expect(facts.filter((fact) => fact.startsWith('ask: '))).toEqual(['ask: please fix these']);
    expect(facts).toContain("decision: I'll fix these type checking issues in the test file");
    // Read and Edit calls name the file by its absolute path.
    expect(facts).toContain('path: /Users/dain/workspace/claude-code-log/test/test_cache.py');
    expect(facts).toContain('identifier: pytest.skip()');
    expect(facts).toContain('identifier: cached_data.version');
    // `ty` is a plain word in backticks, not a symbol.
    expect(facts).not.toContain('identifier: ty');
  });

  it('Codex: asks without the AGENTS.md preamble, exec_command commands, a failing vitest run', () => {
    const messages = load(
      'codex/codemie-code__rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
    );
    const facts = shown(everything(messages));
    expect(facts.filter((fact) => fact.startsWith('ask: '))).toEqual([
      'ask: show tools',
      "ask: let's update the defailt context compart to 90 in env var",
    ]);
    expect(facts).toContain('command: git status --short');
    expect(facts).toContain(
      'command: npm test -- --run src/agents/plugins/__tests__/codemie-code-reasoning.test.ts -t "Compaction Config"',
    );
    expect(facts).toContain(
      'error: AssertionError: expected undefined to deeply equal { auto: true, prune: true, …(1) }',
    );
    expect(facts).toContain('path: src/agents/plugins/codemie-code.plugin.ts');
    // The working directory of every call is the session's, not a fact.
    expect(facts).not.toContain('path: /Users/Sample_User/repos/codemie-ai/codemie-code');
  });

  it('Anthropic: the ask behind a system reminder, git commands and the PR link', () => {
    const messages = load('anthropic/claude-nexus__inference_streaming_with_tools_with_system_opus.json');
    const facts = shown(everything(messages));
    expect(facts.filter((fact) => fact.startsWith('ask: '))).toEqual([
      'ask: verify the README is up to date',
      'ask: make a PR for it',
      'ask: how to make the gh token allow PR creation',
      // Message 88 is "test ", message 90 a request followed by a todo-list system reminder.
      'ask: test',
      'ask: explain what you did badly',
    ]);
    expect(facts).toContain('command: git checkout -b fix/update-readme-accuracy');
    expect(facts).toContain('path: /home/crystalin/projects/moonbeam-tools/README.md');
    expect(facts).toContain(
      'url: https://github.com/Moonsong-Labs/moonbeam-tools/pull/new/fix/update-readme-accuracy',
    );
  });

  it('OpenAI chat (mini-swe-agent): bash commands and a missing program', () => {
    const messages = load('openai-chat/mini-swe-agent__sqlfluff__sqlfluff-2419.traj.json');
    const facts = shown(everything(messages));
    expect(facts).toContain('command: cat ./src/sqlfluff/rules/L060.py');
    expect(facts).toContain('command: sqlfluff lint test_l060.sql --rules L060');
    // `<returncode>127</returncode>`: the shell could not find sqlfluff.
    expect(facts).toContain('error: bash: line 1: sqlfluff: command not found (exit code 127)');
    expect(facts).toContain('identifier: LintResult');
  });

  it.each(corpusPaths)('every fact of %s survives when nothing is compacted', (path) => {
    const messages = load(path);
    const report = measureFidelity(everything(messages), { messages });
    expect(report.lost.map((fact) => `${fact.kind}: ${fact.display}`)).toEqual([]);
    expect(report.score).toBe(1);
  });
});

describe('extractFacts with a facts cache', () => {
  // Overlapping windows in any order, as a comparison's simulations read them: the cache only
  // replays what reading a message found, so every result equals an uncached extraction.
  it('gives every window of every corpus transcript exactly the facts an uncached extraction gives', () => {
    for (const path of corpusPaths) {
      const messages = load(path);
      const cache: MessageFactsCache = new WeakMap();
      const count = messages.length;
      const windows: number[][] = [
        [...messages.keys()],
        [...messages.keys()].filter((index) => index % 3 !== 1),
        [...messages.keys()].slice(count >> 1),
        [...messages.keys()].slice(0, Math.max(1, count >> 2)),
        [...messages.keys()],
      ];
      for (const window of windows) {
        expect(extractFacts(messages, window, cache), path).toEqual(extractFacts(messages, window));
      }
    }
  });
});
