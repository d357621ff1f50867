import { stripAnyHermesSummaryPrefix } from '../compression/markers.ts';
import { messageText, type Message, type ToolCall } from '../transcript/message.ts';
import { createFactCollector, type FactSink } from './fact-collector.ts';
import type { Fact, FactKind } from './fact.ts';
import { findDecisions } from './find-decisions.ts';
import { findCodeDeclarations } from './find-identifiers.ts';
import { findPromptCommands } from './find-prompt-commands.ts';
import { findProseFacts } from './find-prose-facts.ts';
import { findToolCallFacts } from './find-tool-call-facts.ts';
import { findToolOutputFacts } from './find-tool-output-facts.ts';
import { firstSentence } from './first-sentence.ts';
import { CONTENT_TOOL_ERROR_REACH, isContentTool } from './is-content-tool.ts';
import { readUserMessage } from './read-user-message.ts';
import { scanWindows } from './scan-windows.ts';
import { shellCommandText } from './shell-command-text.ts';
import { splitFencedCode } from './split-fenced-code.ts';

/**
 * The facts a compaction puts at risk: everything the messages at `indices` (the ones it removes
 * or summarises) say, by kind (ROUND2 §3), deduplicated by kind and normalised text, in the
 * order of the messages they first appear in, each with the index of that message.
 *
 * Where each kind comes from:
 * - `ask`: each real user request, its first sentence. Summaries, agent scaffolding
 *   (`<system-reminder>`, `<environment_context>`, AGENTS.md, slash-command records,
 *   `[Request interrupted by user]`) and the compressor's synthetic turns are not asks.
 * - `command`: shell tools' `command`/`cmd` arguments (Codex argument arrays too), Claude Code
 *   `<bash-input>`, and `$ command` lines.
 * - `path`: path arguments, patch and diff headers, files named by errors and tracebacks, and
 *   file paths in user and assistant text. Paths that merely appear in outputs (listings,
 *   search hits) are not facts.
 * - `error`: error lines of tool results and of output pasted by the user, and the last line
 *   of a failing command that printed no error line (see `findToolOutputFacts`). Results of
 *   tools that return contents (file reads, searches, web pages: `isContentTool`) are read only
 *   when short enough to be the tool's own error.
 * - `identifier`: declarations in code arguments and fenced code, symbols in backticks and
 *   distinctive names in prose; not the contents of files read.
 * - `url`: URLs in user and assistant text and in arguments; not search results.
 * - `decision`: assistant sentences marked as decided ("I'll", "we will", "decided to", …).
 *
 * Linear in the text read; each text is read at its start and end only (`scanWindows`), so
 * extraction never stalls on a huge output. System and developer messages are skipped: they
 * hold standing instructions, which every strategy keeps, not the conversation.
 *
 * @example
 * const facts = extractFacts(transcript.messages, plan.middleIndices);
 * facts.filter((fact) => fact.kind === 'error').map((fact) => fact.display)
 * // ['FAILED tests/test_api.py::test_create_user', "KeyError: 'id'"]
 */
export function extractFacts(
  messages: readonly Message[],
  indices: Iterable<number>,
  /** What earlier extractions found in these messages (the transcript's `MessageCaches.facts`). */
  cache?: MessageFactsCache,
): Fact[] {
  const collector = createFactCollector();
  const read = (message: Message, reader: (message: Message, sink: FactSink) => void): void =>
    readRecorded(message, reader, collector, cache);
  const toolNames = new Map<string, string>();
  const ordered = [...new Set(indices)].filter((index) => index >= 0 && index < messages.length);
  ordered.sort((left, right) => left - right);
  for (const index of ordered) {
    const message = messages[index]!;
    collector.startMessage(index);
    switch (message.role) {
      case 'system':
      case 'developer':
        break;
      case 'user':
        read(message, readUser);
        break;
      case 'assistant':
        read(message, readAssistant);
        for (const call of message.tool_calls ?? []) rememberToolName(call, toolNames);
        break;
      case 'tool':
      case 'function': {
        // Whether a result is read depends on its call; what reading it finds, only on itself.
        const tool = toolNameOf(messages, index, toolNames);
        if (
          tool === null ||
          !isContentTool(tool) ||
          messageText(message).length <= CONTENT_TOOL_ERROR_REACH
        ) {
          read(message, readToolOutput);
        }
        break;
      }
      default:
        read(message, readOther);
    }
  }
  return collector.facts();
}

/** One fact as an extractor reported it: the arguments of a `FactSink.add` call. */
interface RecordedFact {
  readonly kind: FactKind;
  readonly display: string;
  readonly text: string | undefined;
}

/**
 * Per message, the facts reading it reported, in order. The collector's result depends only on
 * the sequence of `add` calls (it deduplicates and caps what it is given), so replaying a
 * message's recorded calls is reading it again: the 8 strategies of a comparison and the ~450
 * compactions of their simulations read each message's text once.
 */
export type MessageFactsCache = WeakMap<Message, readonly RecordedFact[]>;

function readRecorded(
  message: Message,
  reader: (message: Message, sink: FactSink) => void,
  collector: FactSink,
  cache: MessageFactsCache | undefined,
): void {
  if (cache === undefined) {
    reader(message, collector);
    return;
  }
  let recorded = cache.get(message);
  if (recorded === undefined) {
    const calls: RecordedFact[] = [];
    reader(message, { add: (kind, display, text) => calls.push({ kind, display, text }) });
    cache.set(message, calls);
    recorded = calls;
  }
  for (const fact of recorded) collector.add(fact.kind, fact.display, fact.text);
}

const readToolOutput = (message: Message, sink: FactSink): void =>
  findToolOutputFacts(messageText(message), sink);

const readOther = (message: Message, sink: FactSink): void => findProseFacts(messageText(message), sink);

function readUser(message: Message, sink: FactSink): void {
  const parts = readUserMessage(message);
  for (const command of parts.commands) {
    const text = shellCommandText(command);
    if (text !== null) sink.add('command', text);
  }
  for (const output of parts.outputs) findToolOutputFacts(output, sink);
  if (parts.summary) {
    // An earlier summary being summarised again: what it names is still at stake; it asks
    // nothing. Hermes' boilerplate handoff prefix (naming MEMORY.md, USER.md) is not its content.
    findProseFacts(stripAnyHermesSummaryPrefix(messageText(message)), sink);
    return;
  }
  if (parts.request === '') return;
  const ask = firstSentence(parts.request);
  if (ask !== '') sink.add('ask', ask);
  readProse(parts.request, sink);
  // What the user pasted (a log, a traceback) carries errors like a tool result does.
  findToolOutputFacts(parts.request, sink);
}

function readAssistant(message: Message, sink: FactSink): void {
  const text = messageText(message);
  if (text !== '') {
    readProse(text, sink);
    for (const window of scanWindows(text)) findDecisions(splitFencedCode(window).prose, sink);
  }
  for (const call of message.tool_calls ?? []) findToolCallFacts(call, sink);
}

/** Prose and the code blocks inside it, of a user or assistant message. */
function readProse(text: string, sink: FactSink): void {
  for (const window of scanWindows(text)) {
    const { prose, code } = splitFencedCode(window);
    findProseFacts(prose, sink);
    findPromptCommands(window, sink);
    for (const block of code) findCodeDeclarations(block, sink);
  }
}

/** How far back a tool result looks for its call when that call was not among the extracted messages. */
const CALL_LOOKBACK_MESSAGES = 64;

function rememberToolName(call: ToolCall, toolNames: Map<string, string>): void {
  const name = call.function?.name;
  if (typeof name !== 'string') return;
  for (const id of [call.id, call.call_id]) if (typeof id === 'string' && id !== '') toolNames.set(id, name);
}

/** The name of the tool a result came from: its own `name`, else its call's. */
function toolNameOf(
  messages: readonly Message[],
  index: number,
  toolNames: Map<string, string>,
): string | null {
  const message = messages[index]!;
  for (const name of [message.name, message.tool_name])
    if (typeof name === 'string' && name !== '') return name;
  const callId = message.tool_call_id;
  if (typeof callId !== 'string' || callId === '') return null;
  const known = toolNames.get(callId);
  if (known !== undefined) return known;
  for (let previous = index - 1; previous >= Math.max(0, index - CALL_LOOKBACK_MESSAGES); previous--) {
    const call = messages[previous]!.tool_calls?.find(
      (candidate) => candidate.id === callId || candidate.call_id === callId,
    );
    if (call) return typeof call.function?.name === 'string' ? call.function.name : null;
  }
  return null;
}
