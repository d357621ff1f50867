/**
 * A deterministic summariser that needs no LLM: it reads the turns back out of the prompt it
 * is given and writes a summary in the prompt's own section layout (2026-04 "Active Task"
 * or 2026-07 "Historical Task Snapshot"): the latest user ask verbatim, completed actions from
 * the tool calls and their results, files touched, errors seen, commands run. It is what the
 * app uses without an API key and what the replay CLI uses. One linear pass over the prompt.
 */
import { pythonLength, pythonSlice } from '../tokens/python-length.ts';
import { pythonStringRepr } from '../tokens/python-repr.ts';
import { isPseudoUserText, textOfPythonPartList } from '../transcript/is-pseudo-user-text.ts';
import { isAnyHermesSummaryContent } from './markers.ts';
import { cutOneLine as cut } from './cut-one-line.ts';
import { pythonStrip } from './python-text.ts';
import { assertNever } from '../shared/assert-never.ts';
import type { Summarizer, SummaryRequest } from './summarizer.ts';
import type { SectionContent, SummaryTemplate } from './summary-template.ts';

export const OFFLINE_SUMMARIZER_LABEL = 'Offline summariser (no LLM)';

const TURN_LABEL_RE = /(?:^|\n\n)\[(TOOL RESULT [^\]\n]*|[A-Z][A-Z_ ]*)\]: /g;
const TOOL_CALL_LINE_RE = /^ {2}([^\s(]+)\(([\s\S]*)\)$/;
const stringFieldRe = (keys: string, flags: string): RegExp =>
  new RegExp(`"(?:${keys})"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`, flags);
const PATH_KEYS = 'path|file_path|workdir|output_path|target_file|filename';
const COMMAND_KEYS = 'command|cmd';
const PATH_FIELD_RE = stringFieldRe(PATH_KEYS, 'g');
const COMMAND_FIELD_RE = stringFieldRe(COMMAND_KEYS, 'g');
const FIRST_PATH_RE = stringFieldRe(PATH_KEYS, '');
const FIRST_COMMAND_RE = stringFieldRe(COMMAND_KEYS, '');
const ERROR_LINE_RE = /\b\w*(?:error|exception)\b|\b(?:failed|failure|traceback|fatal|timed out)\b/i;
const TARGET_RE = /Target ~(\d+) tokens/;
const FOCUS_RE = /\n\nFOCUS TOPIC: "([\s\S]*?)"\n/;

const MAX_ACTIONS_HEAD = 10;
const MAX_ACTIONS_TAIL = 30;
const MAX_FILES = 20;
const MAX_COMMANDS = 12;
const MAX_ERRORS = 8;
const ASK_MAX_CHARS = 1400;
const LINE_MAX_CHARS = 160;

interface Turn {
  readonly label: string;
  readonly text: string;
}

interface ToolCallLine {
  readonly name: string;
  readonly args: string;
}

interface Layout {
  readonly task: string;
  readonly inProgress: string;
  readonly pendingAsks: string;
  readonly remaining: string;
}

const LAYOUT_2026_07: Layout = {
  task: '## Historical Task Snapshot',
  inProgress: '## Historical In-Progress State',
  pendingAsks: '## Historical Pending User Asks',
  remaining: '## Historical Remaining Work',
};
const LAYOUT_2026_04: Layout = {
  task: '## Active Task',
  inProgress: '## In Progress',
  pendingAsks: '## Pending User Asks',
  remaining: '## Remaining Work',
};

function unescapeJsonString(raw: string): string {
  return raw.replace(/\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/g, (_match, code: string) => {
    if (code.length === 5) return String.fromCharCode(parseInt(code.slice(1), 16));
    return { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[code] ?? code;
  });
}

function firstLine(text: string): string {
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end);
    if (pythonStrip(line)) return line;
    if (end < 0) break;
    start = end + 1;
  }
  return '';
}

/** The whole line around the first match of `pattern`, or null. */
function lineMatching(text: string, pattern: RegExp): string | null {
  const match = pattern.exec(text);
  if (!match) return null;
  const start = text.lastIndexOf('\n', match.index) + 1;
  const end = text.indexOf('\n', match.index);
  return text.slice(start, end < 0 ? text.length : end);
}

const FIRST_TURNS_MARKER = '\n\nTURNS TO SUMMARIZE:\n';
const PREVIOUS_SUMMARY_MARKER = '\n\nPREVIOUS SUMMARY:\n';
const NEW_TURNS_MARKER = '\n\nNEW TURNS TO INCORPORATE:\n';
/** Whichever opens the prompt's turns first: a first compaction's, or an update's previous summary. */
const TURNS_OPENING_RE = /\n\n(?:TURNS TO SUMMARIZE|PREVIOUS SUMMARY):\n/;
const STRUCTURE_MARKERS = [
  '\n\nUse this exact structure:\n\n',
  '\n\nUpdate the summary using this exact structure.',
] as const;
const MEMORY_MARKER = '\n\nMEMORY PROVIDER CONTEXT:\n';
const MEMORY_CLOSING = '</memory-provider-context>';
/** The instructions after the turns are searched for in this much of the prompt's end first. */
const TRAILER_WINDOW_CHARS = 1 << 16;

/** Where the instructions after the turns start: the last structure marker, or -1. */
function structureStart(prompt: string, turnsStart: number): number {
  // The markers sit in the trailer, near the end: look there before reading back through the
  // turns. A marker found in the window is the last of its kind; the other's last, when not in
  // the window, is before it.
  const windowStart = Math.max(turnsStart, prompt.length - TRAILER_WINDOW_CHARS);
  const window = prompt.slice(windowStart);
  const inWindow = Math.max(...STRUCTURE_MARKERS.map((marker) => window.lastIndexOf(marker)));
  if (inWindow >= 0) return windowStart + inWindow;
  return Math.max(...STRUCTURE_MARKERS.map((marker) => prompt.lastIndexOf(marker)));
}

interface PromptParts {
  readonly previous: string | null;
  readonly turns: string;
  /** The instructions after the turns (structure, size target, focus), or the whole prompt. */
  readonly trailer: string;
}

/**
 * Splits the prompt into its previous summary, its serialised turns and the instructions after
 * them. Markers are looked for where the prompt builders put them (the opening before the turns,
 * the structure and a memory block after), so words a turn quotes are never taken for them.
 */
function promptParts(prompt: string): PromptParts {
  const opening = TURNS_OPENING_RE.exec(prompt);
  if (!opening) return { previous: null, turns: '', trailer: prompt };
  let previous: string | null = null;
  let turnsStart: number;
  if (opening[0] === PREVIOUS_SUMMARY_MARKER) {
    const newTurns = prompt.indexOf(NEW_TURNS_MARKER, opening.index);
    if (newTurns < 0) return { previous: null, turns: '', trailer: prompt };
    previous = prompt.slice(opening.index + PREVIOUS_SUMMARY_MARKER.length, newTurns);
    turnsStart = newTurns + NEW_TURNS_MARKER.length;
  } else {
    turnsStart = opening.index + FIRST_TURNS_MARKER.length;
  }
  let turnsEnd = structureStart(prompt, turnsStart);
  if (turnsEnd < turnsStart) return { previous, turns: prompt.slice(turnsStart), trailer: prompt };
  const trailer = prompt.slice(turnsEnd);
  // Hermes puts a memory provider's block right after the turns, ending in its closing tag.
  if (prompt.endsWith(MEMORY_CLOSING, turnsEnd)) {
    const memory = prompt.lastIndexOf(MEMORY_MARKER, turnsEnd);
    if (memory > turnsStart) turnsEnd = memory;
  }
  return { previous, turns: prompt.slice(turnsStart, turnsEnd), trailer };
}

function parseTurns(block: string): Turn[] {
  const turns: Turn[] = [];
  const starts: { label: string; at: number; bodyAt: number }[] = [];
  for (const match of block.matchAll(TURN_LABEL_RE)) {
    starts.push({ label: match[1]!, at: match.index, bodyAt: match.index + match[0].length });
  }
  for (let i = 0; i < starts.length; i++) {
    const end = i + 1 < starts.length ? starts[i + 1]!.at : block.length;
    turns.push({ label: starts[i]!.label, text: block.slice(starts[i]!.bodyAt, end) });
  }
  return turns;
}

/** An assistant body's visible text and its `[Tool calls: …]` lines. */
function splitAssistant(text: string): { visible: string; calls: ToolCallLine[] } {
  const marker = text.lastIndexOf('\n[Tool calls:\n');
  if (marker < 0 || !text.endsWith('\n]')) return { visible: text, calls: [] };
  const calls: ToolCallLine[] = [];
  for (const line of text.slice(marker + '\n[Tool calls:\n'.length, -2).split('\n')) {
    const match = TOOL_CALL_LINE_RE.exec(line);
    if (match) calls.push({ name: match[1]!, args: match[2]! });
  }
  return { visible: text.slice(0, marker), calls };
}

function fieldValues(args: string, pattern: RegExp): string[] {
  const values: string[] = [];
  for (const match of args.matchAll(pattern)) values.push(unescapeJsonString(match[1]!));
  return values;
}

const pushUnique = (items: string[], value: string, limit: number): void => {
  if (value && !items.includes(value) && items.length < limit) items.push(value);
};

function describeCall(call: ToolCallLine): string {
  const command = FIRST_COMMAND_RE.exec(call.args)?.[1];
  if (command) return `RUN \`${cut(unescapeJsonString(command), 80)}\``;
  const path = FIRST_PATH_RE.exec(call.args)?.[1];
  if (path) return `${call.name.toUpperCase()} ${cut(unescapeJsonString(path), 100)}`;
  return `${call.name.toUpperCase()} ${cut(call.args, 60)}`;
}

/** Sections of a previous summary, by heading (for iterative updates). */
function previousSections(previous: string | null): Map<string, string> {
  const sections = new Map<string, string>();
  if (!previous) return sections;
  const parts = previous.split(/^(?=## )/m);
  for (const part of parts) {
    const newline = part.indexOf('\n');
    if (!part.startsWith('## ') || newline < 0) continue;
    sections.set(pythonStrip(part.slice(0, newline)), pythonStrip(part.slice(newline + 1)));
  }
  return sections;
}

function numbered(previous: string | undefined, actions: readonly string[]): string[] {
  const carried =
    previous && previous !== 'None.' ? previous.split('\n').filter((line) => /^\d+\. /.test(line)) : [];
  const lines = carried.map((line) => line.replace(/^\d+\. /, ''));
  const all = [...lines, ...actions];
  if (all.length <= MAX_ACTIONS_HEAD + MAX_ACTIONS_TAIL) return all.map((action, i) => `${i + 1}. ${action}`);
  const head = all.slice(0, MAX_ACTIONS_HEAD).map((action, i) => `${i + 1}. ${action}`);
  const tailStart = all.length - MAX_ACTIONS_TAIL;
  const tail = all.slice(tailStart).map((action, i) => `${tailStart + i + 1}. ${action}`);
  return [...head, `… ${tailStart - MAX_ACTIONS_HEAD} more actions omitted …`, ...tail];
}

const bullets = (items: readonly string[], empty: string): string =>
  items.length > 0 ? items.map((item) => `- ${item}`).join('\n') : empty;

/** What the compacted turns contain, read back out of a summary prompt. */
interface Digest {
  readonly turnCount: number;
  readonly earlier: Map<string, string>;
  readonly userAsks: readonly string[];
  readonly actions: readonly string[];
  readonly files: readonly string[];
  readonly commands: readonly string[];
  readonly errors: readonly string[];
  readonly decisions: readonly string[];
  readonly toolNames: readonly string[];
  readonly lastAssistantText: string;
  readonly focus: string | null;
  /** The prompt's instructions after the turns (`promptParts`). */
  readonly trailer: string;
}

/** An assistant line that records a choice ("I'll use …", "decided to …"). */
const DECISION_LINE_RE =
  /\b(?:decided|decide to|chose|choose to|chosen|going with|go with|we will|we'll|i will|i'll|let's use|settled on|opted)\b/i;
const MAX_DECISIONS = 8;

function digestPrompt(prompt: string): Digest {
  const { previous, turns: block, trailer } = promptParts(prompt);
  const earlier = previousSections(previous);
  const turns = parseTurns(block);
  const userAsks: string[] = [];
  const actions: string[] = [];
  const files: string[] = [];
  const commands: string[] = [];
  const errors: string[] = [];
  const decisions: string[] = [];
  const toolNames: string[] = [];
  let lastAssistantText = '';
  let pending: ToolCallLine[] = [];
  for (const turn of turns) {
    if (turn.label === 'USER') {
      // A 2026-04 summary sits in the middle as a user turn on re-compression: it is not an ask.
      // Every generation's prefixes are recognised. Scaffolding no person typed (interrupt
      // notices, injected context) is not an ask either: the importers' own test. 2026-04
      // writes part lists as Python reprs; the words inside are the ask.
      const text = textOfPythonPartList(turn.text) ?? turn.text;
      if (pythonStrip(text) && !isAnyHermesSummaryContent(turn.text) && !isPseudoUserText(text))
        userAsks.push(text);
    } else if (turn.label === 'ASSISTANT') {
      const { visible, calls } = splitAssistant(turn.text);
      if (pythonStrip(visible)) {
        lastAssistantText = visible;
        if (decisions.length < MAX_DECISIONS) {
          for (const line of visible.split('\n')) {
            if (DECISION_LINE_RE.test(line)) pushUnique(decisions, cut(line, LINE_MAX_CHARS), MAX_DECISIONS);
          }
        }
      }
      for (const call of pending)
        actions.push(`${describeCall(call)} — no result recorded [tool: ${call.name}]`);
      pending = calls;
      for (const call of calls) {
        pushUnique(toolNames, call.name, MAX_FILES);
        if (files.length < MAX_FILES) {
          for (const path of fieldValues(call.args, PATH_FIELD_RE))
            pushUnique(files, cut(path, LINE_MAX_CHARS), MAX_FILES);
        }
        if (commands.length < MAX_COMMANDS) {
          for (const command of fieldValues(call.args, COMMAND_FIELD_RE)) {
            pushUnique(commands, cut(command, LINE_MAX_CHARS), MAX_COMMANDS);
          }
        }
      }
    } else if (turn.label.startsWith('TOOL RESULT')) {
      const call = pending.shift();
      const outcome = cut(firstLine(turn.text), 120) || 'empty result';
      actions.push(
        call ? `${describeCall(call)} — ${outcome} [tool: ${call.name}]` : `TOOL RESULT — ${outcome}`,
      );
      const errorLine = errors.length < MAX_ERRORS ? lineMatching(turn.text, ERROR_LINE_RE) : null;
      if (errorLine) pushUnique(errors, cut(errorLine, LINE_MAX_CHARS), MAX_ERRORS);
    }
  }
  for (const call of pending) actions.push(`${describeCall(call)} — no result recorded [tool: ${call.name}]`);
  for (const line of (earlier.get('## Relevant Files') ?? '').split('\n')) {
    if (line.startsWith('- ')) pushUnique(files, line.slice(2), MAX_FILES);
  }
  return {
    turnCount: turns.length,
    earlier,
    userAsks,
    actions,
    files,
    commands,
    errors,
    decisions,
    toolNames,
    lastAssistantText,
    focus: FOCUS_RE.exec(trailer)?.[1] ?? null,
    trailer,
  };
}

const quotedAsk = (digest: Digest): string | null => {
  const lastAsk = digest.userAsks[digest.userAsks.length - 1];
  return lastAsk !== undefined ? `User asked: ${pythonStringRepr(cut(lastAsk, ASK_MAX_CHARS))}` : null;
};

function criticalLines(digest: Digest): string[] {
  const focus = digest.focus;
  return [
    digest.commands.length > 0
      ? `Commands run: ${digest.commands.map((command) => `\`${command}\``).join(', ')}`
      : null,
    focus && !focus.startsWith('Recent user focus:') ? `Focus requested: ${cut(focus, 200)}` : null,
    `Offline summary of ${digest.turnCount} compacted message(s); written without an LLM.`,
  ].filter((line): line is string => line !== null);
}

/** Hermes' handoff layout (2026-04 "Active Task" or 2026-07 "Historical Task Snapshot"). */
function hermesLayout(digest: Digest): string {
  const layout = digest.trailer.includes('\n## Historical Task Snapshot\n') ? LAYOUT_2026_07 : LAYOUT_2026_04;
  const { earlier, files, errors } = digest;
  const ask = quotedAsk(digest);
  const goal =
    digest.userAsks[0] !== undefined
      ? cut(digest.userAsks[0], 300)
      : (earlier.get('## Goal') ?? 'Not stated in the compacted turns.');
  const sections = [
    `${layout.task}\n${ask ?? earlier.get(layout.task) ?? 'None.'}`,
    `## Goal\n${goal}`,
    `## Constraints & Preferences\n${earlier.get('## Constraints & Preferences') ?? 'None recorded.'}`,
    `## Completed Actions\n${numbered(earlier.get('## Completed Actions'), digest.actions).join('\n') || 'None recorded.'}`,
    `## Active State\n${files.length > 0 ? `Files touched: ${files.slice(0, 5).join(', ')}` : 'Unknown from the compacted turns.'}`,
    `${layout.inProgress}\n${digest.lastAssistantText ? cut(digest.lastAssistantText, 400) : 'None recorded.'}`,
    `## Blocked\n${bullets(errors, 'None.')}`,
    `## Key Decisions\n${earlier.get('## Key Decisions') ?? 'None recorded.'}`,
    `## Resolved Questions\n${earlier.get('## Resolved Questions') ?? 'None recorded.'}`,
    `${layout.pendingAsks}\n${ask ?? 'None.'}`,
    `## Relevant Files\n${bullets(files, 'None.')}`,
    `${layout.remaining}\n${ask ? 'Continue from the latest user ask if it is still open.' : 'None recorded.'}`,
    `## Critical Context\n${criticalLines(digest).join('\n')}`,
  ];
  return sections.join('\n\n');
}

/** One section of a strategy's own template, filled from the digest. */
function sectionBody(content: SectionContent, heading: string, digest: Digest): string {
  const earlier = digest.earlier.get(heading);
  const ask = quotedAsk(digest);
  switch (content) {
    case 'latest-ask':
      return ask ?? earlier ?? 'None.';
    case 'goal':
      return digest.userAsks[0] !== undefined
        ? cut(digest.userAsks[0], 300)
        : (earlier ?? 'Not stated in the compacted turns.');
    case 'user-messages':
      return digest.userAsks.length > 0
        ? digest.userAsks.map((text) => `- ${pythonStringRepr(cut(text, 300))}`).join('\n')
        : (earlier ?? 'None.');
    case 'constraints':
      return earlier ?? 'None recorded.';
    case 'progress':
      return numbered(earlier, digest.actions).join('\n') || 'None recorded.';
    case 'decisions':
      return digest.decisions.length > 0 ? bullets(digest.decisions, '') : (earlier ?? 'None recorded.');
    case 'files':
      return bullets(digest.files, earlier ?? 'None.');
    case 'errors':
      return bullets(digest.errors, earlier ?? 'None.');
    case 'commands':
      return bullets(
        digest.commands.map((command) => `\`${command}\``),
        earlier ?? 'None.',
      );
    case 'current-work':
      return digest.lastAssistantText ? cut(digest.lastAssistantText, 400) : (earlier ?? 'None recorded.');
    case 'pending':
      return ask ? `${ask} (if still open)` : (earlier ?? 'None.');
    case 'next-step':
      return ask ? `Continue with the latest request. ${ask}` : (earlier ?? 'None recorded.');
    case 'concepts':
      return digest.toolNames.length > 0
        ? `Tools used: ${digest.toolNames.join(', ')}`
        : (earlier ?? 'None recorded.');
    case 'critical':
      return criticalLines(digest).join('\n');
    case 'discoveries':
      return (
        [
          ...digest.errors.map((line) => `- Error seen: ${line}`),
          ...digest.files.slice(0, 10).map((file) => `- File involved: ${file}`),
        ].join('\n') ||
        earlier ||
        'None recorded.'
      );
    default:
      return assertNever(content);
  }
}

/**
 * A strategy's own layout. The latest user ask is always quoted somewhere: a template without
 * a section for it gets it appended to its first section, so no summary loses what was asked.
 */
function templateLayout(digest: Digest, template: SummaryTemplate): string {
  const bodies = template.sections.map((section) => sectionBody(section.content, section.heading, digest));
  const quotesAsk = template.sections.some((section) =>
    ['latest-ask', 'user-messages', 'pending', 'next-step'].includes(section.content),
  );
  const ask = quotedAsk(digest);
  if (!quotesAsk && ask && bodies.length > 0) bodies[0] = `${bodies[0]}\n${ask}`;
  const offline = `Offline summary of ${digest.turnCount} compacted message(s); written without an LLM.`;
  const sections = template.sections.map((section, index) => `${section.heading}\n${bodies[index]}`);
  return template.sections.some((section) => section.content === 'critical')
    ? sections.join('\n\n')
    : `${sections.join('\n\n')}\n\n${offline}`;
}

/**
 * Builds the summary body for one prompt: Hermes' handoff layout, or the section layout of a
 * strategy's template when one is given. Exported for tests and the replay CLI.
 */
export function summarizeOffline(prompt: string, template?: SummaryTemplate): string {
  const digest = digestPrompt(prompt);
  const body = template ? templateLayout(digest, template) : hermesLayout(digest);
  const targetTokens = Number(TARGET_RE.exec(digest.trailer)?.[1] ?? 0);
  // Stay near the requested size: 4 characters per token, as the budget itself assumes.
  const maxChars = targetTokens > 0 ? targetTokens * 4 : body.length;
  if (pythonLength(body) <= maxChars) return body;
  const capped = pythonSlice(body, 0, maxChars);
  // A strategy's layout may quote the ask late (Claude Code lists it in section 6): cutting to
  // size must not lose it.
  const ask = template ? quotedAsk(digest) : null;
  return ask && !capped.includes(ask) ? `${capped}\n\nLatest request — ${ask}` : capped;
}

/** The offline `Summarizer`; `summarize` works from the prompt text alone. */
export function createOfflineSummarizer(): Summarizer {
  return {
    label: OFFLINE_SUMMARIZER_LABEL,
    offline: true,
    summarize: (request: SummaryRequest) =>
      Promise.resolve(summarizeOffline(request.prompt, request.template)),
  };
}
