/**
 * The section layout a strategy asks its summariser for, as data. A provider's model reads the
 * headings and guidance in the prompt; the offline summariser reads `content` and fills each
 * section from what the compacted turns contain, so every strategy works without a key.
 */

/** What belongs in a section, in terms the offline summariser can fill. */
export type SectionContent =
  /** The latest user request, quoted verbatim. */
  | 'latest-ask'
  /** The overall goal: the first request of the conversation. */
  | 'goal'
  /** Every user request, each quoted (Claude Code's "All user messages"). */
  | 'user-messages'
  | 'constraints'
  /** What was done, tool call by tool call. */
  | 'progress'
  | 'decisions'
  | 'files'
  | 'errors'
  | 'commands'
  /** What the assistant was doing last. */
  | 'current-work'
  | 'pending'
  | 'next-step'
  /** Tools and technical terms the conversation used. */
  | 'concepts'
  | 'critical'
  /** What was learned: findings, errors met, files that matter. */
  | 'discoveries';

export interface SummarySection {
  /** The heading as it appears in the summary, e.g. `## Goal`. */
  readonly heading: string;
  readonly content: SectionContent;
  /** One line telling a model what to put there, in the strategy's own words. */
  readonly guidance: string;
}

export interface SummaryTemplate {
  readonly sections: readonly SummarySection[];
}

export interface TemplatePromptInput {
  /** The strategy's own instructions (who the summariser is and what the summary is for). */
  readonly instructions: string;
  /** The turns, serialised as `[ROLE]: text` entries (`serializeForSummary`). */
  readonly serializedTurns: string;
  readonly template: SummaryTemplate;
  /** A token target for the summary. */
  readonly budgetTokens: number;
  /** An earlier summary to update instead of starting over. */
  readonly previousSummary?: string | null;
  /** A manual `/compress <focus>`. */
  readonly focusTopic?: string | null;
  /** A last line after the structure, e.g. "Reply with the summary only." */
  readonly closing?: string;
}

/**
 * A summary prompt in the layout every summariser here understands: instructions, the turns
 * (after the previous summary when updating one), then the exact section structure and a size
 * target. The offline summariser finds the turns by the same `TURNS TO SUMMARIZE:` /
 * `NEW TURNS TO INCORPORATE:` markers Hermes' own prompts use.
 */
export function buildTemplatePrompt(input: TemplatePromptInput): string {
  const structure = input.template.sections.map((section) => `${section.heading}\n[${section.guidance}]`);
  const focus = input.focusTopic
    ? `\n\nFOCUS TOPIC: "${input.focusTopic}"\nGive the focus topic most of the summary; keep the rest brief.`
    : '';
  const turns = input.previousSummary
    ? `PREVIOUS SUMMARY:\n${input.previousSummary}\n\nNEW TURNS TO INCORPORATE:\n${input.serializedTurns}`
    : `TURNS TO SUMMARIZE:\n${input.serializedTurns}`;
  return (
    `${input.instructions}\n\n${turns}\n\n` +
    `Use this exact structure:\n\n${structure.join('\n\n')}${focus}\n\n` +
    `Target ~${input.budgetTokens} tokens.${input.closing ? `\n${input.closing}` : ''}`
  );
}
