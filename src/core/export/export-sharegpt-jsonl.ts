import { messageText, type Message } from '../transcript/message.ts';
import type { Transcript, ToolSchema as TranscriptToolSchema } from '../transcript/transcript.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import {
  toShareGptJsonlLine,
  toShareGptTrajectory,
  type ToolSchema,
} from '../trajectory/to-sharegpt-trajectory.ts';

export interface ShareGptExportOptions {
  /** Hermes writes `completed: false` to `failed_trajectories.jsonl`. Defaults to true. */
  completed?: boolean;
  /** Local ISO time written as `timestamp`; core has no clock, so the caller supplies it. */
  timestampIso?: string;
}

/**
 * Hermes trajectory JSONL (`trajectory_samples.jsonl`) for a transcript, via Hermes'
 * `convert_to_trajectory_format` port: leading system messages are left to the generated
 * function-calling preamble, the first user message is the query. A transcript imported from
 * several ShareGPT conversations is written back as one line per conversation.
 */
export function exportShareGptJsonl(transcript: Transcript, options: ShareGptExportOptions = {}): string {
  const tools = toTrajectoryTools(transcript.metadata.tools ?? []);
  const lines: string[] = [];
  for (const messages of conversationsOf(transcript)) {
    const firstUser = messages.findIndex((message) => message.role === 'user');
    if (firstUser === -1) continue;
    const conversation = messages.slice(firstUser);
    const trajectory = toShareGptTrajectory(
      conversation,
      messageText(conversation[0]!),
      options.completed ?? true,
      {
        tools,
        ...(transcript.metadata.model ? { model: transcript.metadata.model } : {}),
        ...(options.timestampIso ? { timestampIso: options.timestampIso } : {}),
      },
    );
    lines.push(toShareGptJsonlLine(trajectory));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

function conversationsOf(transcript: Transcript): Message[][] {
  const segments = transcript.metadata.format === 'sharegpt' ? (transcript.metadata.segments ?? []) : [];
  if (segments.length < 2) return [transcript.messages];
  const starts = segments.map((segment) => segment.messageIndex);
  return starts.map((start, index) =>
    transcript.messages.slice(start, starts[index + 1] ?? transcript.messages.length),
  );
}

/**
 * Tool schemas in the OpenAI shape the trajectory expects, from whatever the source had:
 * OpenAI `{type, function}`, Anthropic `{name, description, input_schema}`, or Hermes'
 * preamble entries `{name, description, parameters}`.
 */
function toTrajectoryTools(tools: readonly TranscriptToolSchema[]): ToolSchema[] {
  return tools.flatMap((tool): ToolSchema[] => {
    const fn = isPlainObject(tool.function) ? tool.function : tool;
    if (typeof fn.name !== 'string') return [];
    return [
      {
        type: 'function',
        function: {
          name: fn.name,
          ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
          parameters: fn.parameters ?? tool.input_schema ?? tool.parameters ?? {},
        },
      },
    ];
  });
}
