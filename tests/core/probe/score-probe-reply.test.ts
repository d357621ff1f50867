import { describe, expect, it } from 'vitest';
import { parseProbeReply } from '#core/probe/parse-probe-reply.ts';
import type { ProbeFact } from '#core/probe/probe-fact.ts';
import { scoreProbeReply } from '#core/probe/score-probe-reply.ts';
import type { Message } from '#core/transcript/message.ts';

const facts: ProbeFact[] = [
  { label: 'P1', value: 'amber-falcon-4821', plantedAt: 4, after: 3 },
  { label: 'P2', value: 'cobalt-heron-1234', plantedAt: 8, after: 5 },
  { label: 'P3', value: 'jade-otter-9001', plantedAt: 12, after: 7 },
  { label: 'P4', value: 'misty-yak-5555', plantedAt: 16, after: 9 },
];

const compacted: Message[] = [
  { role: 'system', content: 'system prompt' },
  { role: 'user', content: 'Summary: the user noted P1 = "amber-falcon-4821" and P3 = "jade-otter-9001".' },
  { role: 'user', content: 'latest ask' },
];

describe('parseProbeReply', () => {
  it('reads labels in any order and any case, through bullets, bold, quotes and backticks', () => {
    const reply = [
      'Here is what I remember:',
      '- **p3**: `jade-otter-9001`',
      '1. P1 = "amber-falcon-4821".',
      'P2 – unknown',
      'Hope that helps!',
    ].join('\n');
    expect(parseProbeReply(reply, ['P1', 'P2', 'P3', 'P4'])).toEqual(
      new Map([
        ['P3', 'jade-otter-9001'],
        ['P1', 'amber-falcon-4821'],
        ['P2', 'unknown'],
      ]),
    );
  });

  it('does not take P10 for P1, and keeps the first line that names a label', () => {
    const reply = 'P10: x-y-1\nP1: first-one-1111\nP1: second-two-2222';
    expect(parseProbeReply(reply, ['P1'])).toEqual(new Map([['P1', 'first-one-1111']]));
  });

  it('ignores prose that mentions a label without answering it on its own line', () => {
    expect(parseProbeReply('I think the value of P1 was amber.', ['P1'])).toEqual(new Map());
  });
});

describe('scoreProbeReply', () => {
  it('tells recalled, wrong, unknown and missing apart, and which values survived as text', () => {
    const reply = 'P1: AMBER-FALCON-4821\nP2: unknown\nP3: jade-otter-9000';
    const score = scoreProbeReply(facts, reply, compacted);
    expect(
      score.facts.map((fact) => [fact.label, fact.outcome, fact.answer, fact.inCompactedContext]),
    ).toEqual([
      ['P1', 'recalled', 'AMBER-FALCON-4821', true],
      ['P2', 'unknown', 'unknown', false],
      ['P3', 'wrong', 'jade-otter-9000', true],
      ['P4', 'missing', null, false],
    ]);
    expect(score.recalled).toBe(1);
    expect(score.recall).toBe(0.25);
    expect(score.inContext).toBe(2);
  });

  it('scores every fact recalled as 1', () => {
    const reply = facts.map((fact) => `${fact.label}: "${fact.value}"`).join('\n');
    expect(scoreProbeReply(facts, reply, compacted).recall).toBe(1);
  });

  it('an empty answer is missing, not wrong', () => {
    expect(scoreProbeReply(facts.slice(0, 1), 'P1:', compacted).facts[0]!.outcome).toBe('missing');
  });
});
