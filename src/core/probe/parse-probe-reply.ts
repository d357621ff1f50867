/**
 * The model's answer per label, from a reply that may wrap the lines in prose, bullets, bold,
 * quotes or backticks, in any order and any case: `P2 = "x"`, `- **p2**: \`x\``, `P2 - x`. The
 * first line naming a label answers it; lines naming no label are ignored. A label absent from
 * the reply has no entry.
 *
 * @example parseProbeReply('Sure!\n- **P2**: `amber-falcon-4821`\nP1: unknown', ['P1', 'P2'])
 * // Map { 'P2' => 'amber-falcon-4821', 'P1' => 'unknown' }
 */
export function parseProbeReply(reply: string, labels: readonly string[]): Map<string, string> {
  const wanted = new Map(labels.map((label) => [label.toLowerCase(), label]));
  const answers = new Map<string, string>();
  for (const line of reply.split(/\r?\n/)) {
    const match = LINE.exec(line);
    if (!match) continue;
    const label = wanted.get(match[1]!.toLowerCase());
    if (label === undefined || answers.has(label)) continue;
    answers.set(label, cleanAnswer(match[2]!));
  }
  return answers;
}

/** A label (a letter and digits, not followed by more digits), then `:`, `=`, `-` or `–`, then the answer. */
const LINE = /^[\s>*_`"'#\-•·\d.)]*?\b([a-z]\d+)\b[\s*_`"']*(?::|=|-|–|—)\s*(.*)$/i;

/** The answer without the wrapping a model adds: quotes, backticks, bold, a final full stop. */
function cleanAnswer(text: string): string {
  return text
    .trim()
    .replace(/^[\s*_`"'“”‘’]+|[\s*_`"'“”‘’.,;]+$/g, '')
    .trim();
}

/** What an answer and a value are compared as: lower case, inner whitespace removed. */
export const normalizeProbeAnswer = (text: string): string => text.toLowerCase().replace(/\s+/g, '');
