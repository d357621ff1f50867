/**
 * Properties of planBoundaries and pruneOldToolResults on both presets, with fast-check over
 * loose agent sessions (any order, interrupted tool rounds, images, earlier summaries, huge
 * outputs) and boundary settings. A failure prints the shrunk scenario with the `seed` and
 * `path` that replay it; pin the scenario itself under
 * `tests/fixtures/property-regressions/boundaries/`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  planBoundaries,
  type BoundaryOptions,
  type BoundaryPlan,
} from '#core/compression/plan-boundaries.ts';
import { pruneOldToolResults } from '#core/compression/prune-old-tool-results.ts';
import { isContextSummaryContent } from '#core/compression/markers.ts';
import { ALL_PRESETS, type Preset } from '#core/presets/preset.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { arbitraryLooseTranscript, arbitraryWeighted } from '#tests/helpers/arbitrary-transcript.ts';
import { readPropertyRegression } from '#tests/helpers/read-property-regression.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 2000);

interface Scenario {
  readonly messages: Message[];
  readonly options: BoundaryOptions;
}

/** Scenarios that once failed (a causal coupling that did not move the cut went unrecorded). */
const REGRESSIONS: readonly Scenario[] = [3, 166, 282, 306, 316, 4242].map((oldSeed) =>
  readPropertyRegression<Scenario>(`boundaries/unrecorded-causal-coupling-${oldSeed}.json`),
);

const arbitraryScenario: fc.Arbitrary<Scenario> = fc.record({
  messages: arbitraryLooseTranscript().map(({ messages }) => messages),
  options: fc.record({
    protectFirstN: fc.nat(4),
    protectLastN: fc.integer({ min: 1, max: 25 }),
    tailTokenBudget: fc.constantFrom(0, 10, 50, 200, 2000, 30_000),
    compressionCount: arbitraryWeighted([
      [0, 7],
      [1, 3],
    ]),
    hasPreviousSummary: arbitraryWeighted([
      [false, 9],
      [true, 1],
    ]),
  }),
});

/** Index of the assistant that issued the tool results ending right before `index`, or -1. */
function callOwnerOf(messages: readonly Message[], index: number): number {
  let check = index;
  while (check >= 0 && messages[check]?.role === 'tool') check--;
  return check >= 0 && messages[check]?.role === 'assistant' && messages[check]?.tool_calls?.length
    ? check
    : -1;
}

function latestUser(messages: readonly Message[], headEnd: number, preset: Preset): number {
  for (let index = messages.length - 1; index >= headEnd; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    if (preset === HERMES_2026_07 && isContextSummaryContent(message.content, preset)) continue;
    return index;
  }
  return -1;
}

/** The violated invariant, or null. */
function checkBoundaries(messages: readonly Message[], plan: BoundaryPlan, preset: Preset): string | null {
  const count = messages.length;
  const { headEnd, tailStart } = plan;
  if (headEnd < 0 || headEnd > tailStart) return `order: head ${headEnd} tail ${tailStart}`;
  if (!plan.tooFewMessages && tailStart > count) return `tail ${tailStart} beyond ${count}`;
  if (messages[headEnd]?.role === 'tool') return `head ends on a tool result at ${headEnd}`;
  if (messages[tailStart]?.role === 'tool') {
    const owner = callOwnerOf(messages, tailStart);
    const splitsGroup = owner >= headEnd && owner < tailStart;
    // 2026-04's progress floor could land on a result whose call sits at the head end
    // (fixed upstream 2026-07-19); every other split is a bug.
    const knownLegacySplit = preset === HERMES_2026_04 && owner === headEnd && tailStart === headEnd + 1;
    if (splitsGroup && !knownLegacySplit) return `tail starts inside the tool group of ${owner}`;
  }
  const user = latestUser(messages, headEnd, preset);
  if (user >= 0 && user < tailStart) {
    const coupled = plan.tailCut.steps.some(
      (step) => step.kind === 'causal-coupling' && step.userIndex === user,
    );
    // The tail must start after the head end, so a latest user message at the head end is summarised:
    // 2026-07 does it on purpose with its reply (causal coupling), 2026-04 through its progress floor.
    if (user !== headEnd || (preset === HERMES_2026_07 && !coupled))
      return `latest user ${user} left out of the tail`;
  }
  return null;
}

function checkPruning(scenario: Scenario, preset: Preset): string | null {
  const before = structuredClone(scenario.messages);
  const pruned = pruneOldToolResults(
    scenario.messages,
    {
      protectTailCount: scenario.options.protectLastN,
      protectTailTokens: scenario.options.tailTokenBudget || null,
    },
    preset,
  );
  if (JSON.stringify(before) !== JSON.stringify(scenario.messages)) return 'pruning mutated its input';
  if (pruned.messages.length !== before.length) return 'pruning changed the message count';
  if (pruned.messages.some((message, index) => message.role !== before[index]!.role))
    return 'pruning changed a role';
  if (pruned.pruneBoundary < 0 || pruned.pruneBoundary > before.length)
    return `prune boundary ${pruned.pruneBoundary}`;
  return null;
}

function violation(scenario: Scenario, preset: Preset): string | null {
  const raw = planBoundaries(scenario.messages, scenario.options, preset);
  const pruneProblem = checkPruning(scenario, preset);
  if (pruneProblem) return pruneProblem;
  const rawProblem = checkBoundaries(scenario.messages, raw, preset);
  if (rawProblem) return `unpruned: ${rawProblem}`;
  const pruned = pruneOldToolResults(
    scenario.messages,
    { protectTailCount: scenario.options.protectLastN, protectTailTokens: scenario.options.tailTokenBudget },
    preset,
  ).messages;
  const prunedProblem = checkBoundaries(pruned, planBoundaries(pruned, scenario.options, preset), preset);
  return prunedProblem ? `pruned: ${prunedProblem}` : null;
}

describe('planBoundaries properties', () => {
  it.each(ALL_PRESETS.map((preset) => [preset.name, preset] as const))(
    'keeps every invariant on %s for generated sessions',
    (_name, preset) => {
      fc.assert(
        fc.property(arbitraryScenario, (scenario) => {
          // Thrown whole: the violation names what broke and where.
          const problem = violation(scenario, preset);
          if (problem !== null) throw new Error(problem);
        }),
        { numRuns: RUNS, examples: REGRESSIONS.map((scenario) => [scenario]) },
      );
    },
  );

  it('reproduces the 2026-04 progress floor that can split a tool group, fixed in 2026-07', () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'u' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'a', content: 'r'.repeat(4000) },
      { role: 'assistant', content: 'x'.repeat(4000) },
      { role: 'assistant', content: 'y'.repeat(4000) },
    ];
    const options = {
      protectFirstN: 2,
      protectLastN: 3,
      tailTokenBudget: 10,
      compressionCount: 0,
      hasPreviousSummary: false,
    };
    const april = planBoundaries(messages, options, HERMES_2026_04);
    const july = planBoundaries(messages, { ...options, protectFirstN: 1 }, HERMES_2026_07);
    expect([april.headEnd, april.tailStart]).toEqual([2, 3]);
    expect(messages[april.tailStart]!.role).toBe('tool');
    expect(july.headEnd).toBe(2);
    expect(messages[july.tailStart]?.role).not.toBe('tool');
  });
});
