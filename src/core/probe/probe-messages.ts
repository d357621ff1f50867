import type { Message } from '../transcript/message.ts';

/** Every text Context Lab adds to a probed conversation starts with this tag. */
export const PROBE_TAG = '[Context Lab probe]';

/**
 * The two messages that plant one fact: the user states it, the assistant acknowledges it
 * without repeating the value (so the value appears once, in the user's words). A user/assistant
 * pair keeps roles well-formed for every provider wherever it is planted between whole turns or
 * tool groups; the tag names it as a probe, so it is never mistaken for the user's own words.
 *
 * @example probeFactMessages('P3', 'amber-falcon-4821')[0].content
 * // '[Context Lab probe] Keep this fact for later in the task: P3 = "amber-falcon-4821".'
 */
export function probeFactMessages(label: string, value: string): [Message, Message] {
  return [
    { role: 'user', content: `${PROBE_TAG} Keep this fact for later in the task: ${label} = "${value}".` },
    { role: 'assistant', content: `Noted: I will keep ${label} for later.` },
  ];
}

/**
 * The final question: every label, one line each, the exact value or `unknown`.
 *
 * @example probeQuestion(['P1', 'P2'])
 */
export function probeQuestion(labels: readonly string[]): string {
  return [
    `${PROBE_TAG} Earlier in this conversation you were given facts labelled ${labels.join(', ')}.`,
    'For each label, reply with its exact value, or unknown if you do not know it.',
    'Reply with one line per label in exactly this form and nothing else:',
    ...labels.map((label) => `${label}: <value>`),
  ].join('\n');
}
