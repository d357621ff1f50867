import type { ContentPart, Message, ToolCall } from '../transcript/message.ts';
import type { ForeignCompactionPoint, Transcript } from '../transcript/transcript.ts';
import { formatCount } from '../shared/format-count.ts';
import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import { markdownCode, markdownInline } from './markdown-inline.ts';

const ROLE_HEADINGS: Record<string, string> = {
  system: 'System',
  developer: 'Developer',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool result',
  function: 'Function result',
};

/** Tool results longer than this are folded in a `<details>` block. */
const FOLDED_RESULT_MIN_CHARS = 400;

/**
 * A transcript for reading: one heading per message, reasoning as a quote, tool calls as
 * fenced JSON, tool results in fenced blocks (long ones inside `<details>`, which GitHub and
 * most renderers fold), foreign compaction points and segment starts marked between messages.
 * Metadata from the file (title, model, ids, tool names, labels) is escaped: a file must not
 * be able to put HTML into a document someone will render.
 */
export function exportMarkdown(transcript: Transcript): string {
  const { metadata, messages } = transcript;
  const out: string[] = [
    `# ${markdownInline(metadata.title ?? 'Transcript')}`,
    '',
    ...metadataLines(transcript),
    '',
  ];
  const pointsByIndex = groupBy(metadata.compactionPoints, (point) => point.messageIndex);
  const segmentsByIndex = groupBy(metadata.segments ?? [], (segment) => segment.messageIndex);
  const callsById = new Map<string, ToolCall>();

  messages.forEach((message, index) => {
    for (const segment of segmentsByIndex.get(index) ?? [])
      out.push(`---`, '', `*${markdownInline(segment.label)}*`, '');
    for (const point of pointsByIndex.get(index) ?? []) out.push(...compactionLines(point));
    out.push(...messageLines(message, index, callsById));
  });
  for (const point of pointsByIndex.get(messages.length) ?? []) out.push(...compactionLines(point));
  return `${out.join('\n').trimEnd()}\n`;
}

function metadataLines({ metadata, messages }: Transcript): string[] {
  const facts = [
    `Source: ${markdownInline(metadata.format)}`,
    metadata.model ? `Model: ${markdownInline(metadata.model)}` : '',
    metadata.sourceSessionId ? `Session: ${markdownInline(metadata.sourceSessionId)}` : '',
    metadata.startedAt ? `Started: ${markdownInline(metadata.startedAt)}` : '',
    `${formatCount(messages.length)} messages`,
  ];
  return [facts.filter(Boolean).join(' · ')];
}

function messageLines(message: Message, index: number, callsById: Map<string, ToolCall>): string[] {
  const heading = ROLE_HEADINGS[message.role] ?? markdownInline(String(message.role));
  if (message.role === 'tool') {
    const call = typeof message.tool_call_id === 'string' ? callsById.get(message.tool_call_id) : undefined;
    const label = [
      call ? markdownCode(call.function.name) : '',
      message.tool_call_id ? `(${markdownInline(message.tool_call_id)})` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const text = contentText(message.content);
    const title = `## ${index} · ${heading}${label ? ` · ${label}` : ''}${message.is_error === true ? ' · error' : ''}`;
    const block = fenced(text, 'text');
    if (text.length < FOLDED_RESULT_MIN_CHARS) return [title, '', ...block, ''];
    return [
      title,
      '',
      `<details><summary>${formatCount(text.length)} characters</summary>`,
      '',
      ...block,
      '',
      '</details>',
      '',
    ];
  }
  const lines = [`## ${index} · ${heading}`, ''];
  if (typeof message.reasoning === 'string' && message.reasoning) {
    lines.push(...message.reasoning.split('\n').map((line) => `> ${line}`.trimEnd()), '');
  }
  const text = contentText(message.content);
  if (text) lines.push(text, '');
  for (const call of message.tool_calls ?? []) {
    callsById.set(call.id, call);
    lines.push(
      `**Tool call** ${markdownCode(call.function.name)} (${markdownInline(call.id)})`,
      '',
      ...fenced(prettyArguments(call), 'json'),
      '',
    );
  }
  return lines;
}

function compactionLines(point: ForeignCompactionPoint): string[] {
  const details = [
    point.trigger,
    point.preTokens !== undefined ? `${formatCount(point.preTokens)} tokens before` : '',
    point.postTokens !== undefined ? `${formatCount(point.postTokens)} after` : '',
    point.replacedItems !== undefined ? `${formatCount(point.replacedItems)} items replaced` : '',
  ].filter(Boolean);
  const lines = [
    `> **Compaction** (${markdownInline(`${point.kind}${details.length ? `: ${details.join(', ')}` : ''}`)})`,
  ];
  if (point.summary) lines.push('>', ...point.summary.split('\n').map((line) => `> ${line}`.trimEnd()));
  return [...lines, ''];
}

function contentText(content: Message['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content ? JSON.stringify(content) : '';
  return content.map(partText).filter(Boolean).join('\n\n');
}

function partText(part: ContentPart): string {
  if (part.type === 'text' && typeof part.text === 'string') return part.text;
  if (part.type === 'image_url') {
    const url = isPlainObject(part.image_url) ? part.image_url.url : undefined;
    if (typeof url !== 'string') return '[image]';
    if (!url.startsWith('data:')) return `![image](${url})`;
    const mediaType = /^data:([^;,]*)/.exec(url)?.[1] || 'inline data';
    return `[image: ${mediaType}, ${formatCount(url.length)} characters]`;
  }
  return `[${part.type}]`;
}

function prettyArguments(call: ToolCall): string {
  const parsed = safeParseJson(call.function.arguments);
  return parsed.ok ? JSON.stringify(parsed.value, null, 2) : call.function.arguments;
}

/** A fence longer than any backtick run inside, so the content cannot close it. */
function fenced(text: string, language: string): string[] {
  let longestRun = 0;
  for (const run of text.match(/`+/g) ?? []) longestRun = Math.max(longestRun, run.length);
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return [`${fence}${language}`, text, fence];
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
