import { pythonRStrip, pythonStrip } from '../compression/python-text.ts';
import type { ContentPart, Message, ToolCall } from '../transcript/message.ts';
import { dumpsPythonJson, parsePythonJson, toPythonJsonNode, type PythonJsonNode } from './python-json.ts';

/** An OpenAI-style tool definition. */
export interface ToolSchema {
  type?: string;
  function: { name: string; description?: string; parameters?: unknown };
}

export type ShareGptRole = 'system' | 'human' | 'gpt' | 'tool';

export interface ShareGptTurn {
  from: ShareGptRole;
  /** Text; a user turn with content parts keeps its parts (images become `[screenshot]`). */
  value: string | ContentPart[] | null;
}

export interface ShareGptTrajectory {
  conversations: ShareGptTurn[];
  /** Local ISO time the trajectory was saved, supplied by the caller. */
  timestamp: string | null;
  model: string | null;
  completed: boolean;
}

export interface TrajectoryOptions {
  tools: readonly ToolSchema[] | null;
  model?: string;
  timestampIso?: string;
}

/**
 * A conversation in Hermes' ShareGPT training format (`convert_to_trajectory_format`,
 * hermes-reference §12): the function-calling system preamble with the tool list, the user
 * query, then `gpt` turns with `<think>` and `<tool_call>` blocks and one merged `tool` turn per
 * batch of results. `messages[0]` is taken to be the query and skipped. Identical in both
 * generations.
 */
export function toShareGptTrajectory(
  messages: readonly Message[],
  userQuery: string,
  completed: boolean,
  options: TrajectoryOptions,
): ShareGptTrajectory {
  const normalized = messages.map(normalizeForTrajectory);
  const conversations: ShareGptTurn[] = [
    { from: 'system', value: systemPreamble(formatTools(options.tools)) },
    { from: 'human', value: userQuery },
  ];
  for (let index = 1; index < normalized.length; index++) {
    const message = normalized[index]!;
    if (message.role === 'assistant') {
      const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      if (toolCalls.length === 0) {
        conversations.push({
          from: 'gpt',
          value: pythonStrip(withThink(gptPrefix(message) + scratchpadToThink(textOf(message)))),
        });
        continue;
      }
      let content = gptPrefix(message);
      const text = textOf(message);
      if (pythonStrip(text) !== '') content += `${scratchpadToThink(text)}\n`;
      for (const toolCall of toolCalls) {
        if (!toolCall || typeof toolCall !== 'object') continue;
        content += `<tool_call>\n${toolCallJson(toolCall)}\n</tool_call>\n`;
      }
      conversations.push({ from: 'gpt', value: pythonRStrip(withThink(content)) });
      const responses: string[] = [];
      let next = index + 1;
      while (next < normalized.length && normalized[next]!.role === 'tool') {
        responses.push(toolResponse(normalized[next]!, toolCalls[responses.length]));
        next++;
      }
      if (responses.length > 0) {
        conversations.push({ from: 'tool', value: responses.join('\n') });
        index = next - 1;
      }
    } else if (message.role === 'user') {
      conversations.push({ from: 'human', value: userValue(message) });
    }
  }
  return {
    conversations,
    timestamp: options.timestampIso ?? null,
    model: options.model ?? null,
    completed,
  };
}

/** One line of `trajectory_samples.jsonl`: `json.dumps(entry, ensure_ascii=False)`. */
export function toShareGptJsonlLine(trajectory: ShareGptTrajectory): string {
  const entry: PythonJsonNode = {
    kind: 'object',
    entries: [
      ['conversations', toPythonJsonNode(trajectory.conversations)],
      ['timestamp', toPythonJsonNode(trajectory.timestamp)],
      ['model', toPythonJsonNode(trajectory.model)],
      ['completed', toPythonJsonNode(trajectory.completed)],
    ],
  };
  return dumpsPythonJson(entry);
}

/** The tool list as Hermes embeds it: name, description, parameters and `required: null`. */
export function formatTools(tools: readonly ToolSchema[] | null): string {
  if (!tools || tools.length === 0) return '[]';
  const formatted = tools.map((tool): PythonJsonNode => ({
    kind: 'object',
    entries: [
      ['name', toPythonJsonNode(tool.function.name)],
      ['description', toPythonJsonNode(tool.function.description ?? '')],
      ['parameters', toPythonJsonNode(tool.function.parameters ?? {})],
      ['required', { kind: 'null' }],
    ],
  }));
  return dumpsPythonJson({ kind: 'array', items: formatted });
}

function systemPreamble(toolsJson: string): string {
  return (
    'You are a function calling AI model. You are provided with function signatures within <tools> </tools> XML tags. ' +
    'You may call one or more functions to assist with the user query. If available tools are not relevant in assisting ' +
    "with user query, just respond in natural conversational language. Don't make assumptions about what values to plug " +
    'into functions. After calling & executing the functions, you will be provided with function results within ' +
    '<tool_response> </tool_response> XML tags. Here are the available tools:\n' +
    `<tools>\n${toolsJson}\n</tools>\n` +
    'For each function call return a JSON object, with the following pydantic model json schema for each:\n' +
    "{'title': 'FunctionCall', 'type': 'object', 'properties': {'name': {'title': 'Name', 'type': 'string'}, " +
    "'arguments': {'title': 'Arguments', 'type': 'object'}}, 'required': ['name', 'arguments']}\n" +
    'Each function call should be enclosed within <tool_call> </tool_call> XML tags.\n' +
    "Example:\n<tool_call>\n{'name': <function-name>,'arguments': <args-dict>}\n</tool_call>"
  );
}

/** Native reasoning, when present, opens the turn inside `<think>`. */
function gptPrefix(message: Message): string {
  const reasoning = message.reasoning;
  return typeof reasoning === 'string' && pythonStrip(reasoning) !== ''
    ? `<think>\n${reasoning}\n</think>\n`
    : '';
}

/** Every gpt turn carries a `<think>` block, empty when the model gave no reasoning. */
const withThink = (content: string): string =>
  content.includes('<think>') ? content : `<think>\n</think>\n${content}`;

/** Models reasoning in XML (native thinking off) wrote `<REASONING_SCRATCHPAD>`. */
const scratchpadToThink = (text: string): string =>
  text.replaceAll('<REASONING_SCRATCHPAD>', '<think>').replaceAll('</REASONING_SCRATCHPAD>', '</think>');

function toolCallJson(toolCall: ToolCall): string {
  const rawArguments: unknown = toolCall.function?.arguments;
  let argumentsNode: PythonJsonNode;
  if (typeof rawArguments === 'string') {
    const parsed = parsePythonJson(rawArguments);
    argumentsNode = parsed.ok ? parsed.value : { kind: 'object', entries: [] };
  } else {
    argumentsNode = toPythonJsonNode(rawArguments);
  }
  return dumpsPythonJson({
    kind: 'object',
    entries: [
      ['name', toPythonJsonNode(toolCall.function?.name ?? '')],
      ['arguments', argumentsNode],
    ],
  });
}

/** A result becomes JSON when it looks like JSON; the name comes from the call at the same position. */
function toolResponse(message: Message, call: ToolCall | undefined): string {
  const content = message.content;
  let contentNode: PythonJsonNode;
  if (typeof content === 'string') {
    const stripped = pythonStrip(content);
    const parsed = stripped.startsWith('{') || stripped.startsWith('[') ? parsePythonJson(content) : null;
    contentNode = parsed?.ok ? parsed.value : { kind: 'string', value: content };
  } else {
    contentNode = toPythonJsonNode(content ?? null);
  }
  const name = call && typeof call === 'object' ? (call.function?.name ?? 'unknown') : 'unknown';
  const body = dumpsPythonJson({
    kind: 'object',
    entries: [
      ['tool_call_id', toPythonJsonNode('tool_call_id' in message ? message.tool_call_id : '')],
      ['name', toPythonJsonNode(name)],
      ['content', contentNode],
    ],
  });
  return `<tool_response>\n${body}\n</tool_response>`;
}

function userValue(message: Message): ShareGptTurn['value'] {
  const content = message.content;
  if (typeof content === 'string' || content === null || content === undefined) return content ?? null;
  return Array.isArray(content) ? content : [];
}

function textOf(message: Message): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

const IMAGE_PART_TYPES: ReadonlySet<string> = new Set(['image', 'image_url', 'input_image']);

/**
 * Trajectories are text only: image parts become `[screenshot]` and a multimodal tool result
 * (`{text_summary, …}`) becomes its summary (`_trajectory_normalize_msg`).
 */
function normalizeForTrajectory(message: Message): Message {
  const content = message.content;
  if (
    content &&
    typeof content === 'object' &&
    !Array.isArray(content) &&
    typeof content.text_summary === 'string'
  ) {
    return { ...message, content: content.text_summary };
  }
  if (!Array.isArray(content)) return message;
  return {
    ...message,
    content: content.map((part) =>
      part && typeof part === 'object' && IMAGE_PART_TYPES.has(String(part.type))
        ? { type: 'text', text: '[screenshot]' }
        : part,
    ),
  };
}
