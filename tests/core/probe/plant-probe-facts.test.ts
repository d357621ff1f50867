import { describe, expect, it } from 'vitest';
import { plantProbeFacts } from '#core/probe/plant-probe-facts.ts';
import { PROBE_TAG } from '#core/probe/probe-messages.ts';
import { FATE } from '#core/strategies/strategy.ts';
import { messageText, type Message } from '#core/transcript/message.ts';

/**
 * 12 messages: system, a head exchange, then a middle of user/assistant turns with one tool group
 * (4 assistant call, 5 tool result), then a tail. The plan summarises 3..8 and keeps the rest.
 */
function transcript(): Message[] {
  return [
    { role: 'system', content: 'system prompt' },
    { role: 'user', content: 'first ask' },
    { role: 'assistant', content: 'first answer' },
    { role: 'user', content: 'read the file' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'read', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'call-1', content: 'file text' },
    { role: 'assistant', content: 'read it' },
    { role: 'user', content: 'now fix it' },
    { role: 'assistant', content: 'fixed' },
    { role: 'user', content: 'tail ask' },
    { role: 'assistant', content: 'tail answer' },
    { role: 'user', content: 'latest ask' },
  ];
}

const fates = (count: number, start: number, end: number): Uint8Array =>
  Uint8Array.from({ length: count }, (_, index) =>
    index >= start && index < end ? FATE.summarized : FATE.kept,
  );

const plan = { fates: fates(12, 3, 9), headEnd: 3, tailStart: 9 };

describe('plantProbeFacts', () => {
  it('offers only boundaries between two compacted messages outside the tool group', () => {
    // Compacted 3..8: boundaries b with b-1 and b both compacted are 4..8. Not 5: it falls between
    // the assistant's tool call (4) and its result (5). So 4, 6, 7 and 8.
    const planted = plantProbeFacts({ messages: transcript(), plan, count: 1, seed: 7 });
    expect(planted.ok && planted.value.candidates).toBe(4); // 4, 6, 7, 8
  });

  it('is deterministic for a seed and differs for another', () => {
    const first = plantProbeFacts({ messages: transcript(), plan, count: 3, seed: 99 });
    const again = plantProbeFacts({ messages: transcript(), plan, count: 3, seed: 99 });
    const other = plantProbeFacts({ messages: transcript(), plan, count: 3, seed: 100 });
    expect(first).toEqual(again);
    expect(first.ok && other.ok && first.value.facts.map((fact) => fact.value)).not.toEqual(
      other.ok && other.value.facts.map((fact) => fact.value),
    );
  });

  it('labels facts P1…PN with distinct word-word-number values stated in tagged user messages', () => {
    const planted = plantProbeFacts({ messages: transcript(), plan, count: 4, seed: 3 });
    if (!planted.ok) throw new Error(planted.error.message);
    const { facts, messages } = planted.value;
    expect(facts.map((fact) => fact.label)).toEqual(['P1', 'P2', 'P3', 'P4']);
    expect(new Set(facts.map((fact) => fact.value)).size).toBe(4);
    for (const fact of facts) {
      expect(fact.value).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);
      const stated = messages[fact.plantedAt]!;
      expect(stated.role).toBe('user');
      expect(messageText(stated)).toBe(
        `${PROBE_TAG} Keep this fact for later in the task: ${fact.label} = "${fact.value}".`,
      );
      const acknowledged = messages[fact.plantedAt + 1]!;
      expect(acknowledged.role).toBe('assistant');
      expect(messageText(acknowledged)).not.toContain(fact.value);
    }
    // 12 originals + 2 per fact, the originals in their order.
    expect(messages).toHaveLength(12 + 8);
    expect(
      messages.filter(
        (message) =>
          !messageText(message).startsWith(PROBE_TAG) &&
          !messageText(message).startsWith('Noted: I will keep P'),
      ),
    ).toEqual(transcript());
  });

  it('spreads facts evenly over the candidate boundaries, one per boundary when there are enough', () => {
    // Candidates 4, 6, 7, 8: with 4 facts each gets its own, in order.
    const planted = plantProbeFacts({ messages: transcript(), plan, count: 4, seed: 1 });
    if (!planted.ok) throw new Error(planted.error.message);
    expect(planted.value.facts.map((fact) => fact.after)).toEqual([3, 5, 6, 7]);
    // With 2 facts: the middles of two halves of [4, 6, 7, 8] → indices 1 and 3 → boundaries 6 and 8.
    const two = plantProbeFacts({ messages: transcript(), plan, count: 2, seed: 1 });
    expect(two.ok && two.value.facts.map((fact) => fact.after)).toEqual([5, 7]);
  });

  it('never plants in the protected head or tail, nor between a tool call and its result', () => {
    const planted = plantProbeFacts({ messages: transcript(), plan, count: 20, seed: 5 });
    if (!planted.ok) throw new Error(planted.error.message);
    for (const fact of planted.value.facts) {
      expect(fact.after).toBeGreaterThanOrEqual(plan.headEnd);
      expect(fact.after + 1).toBeLessThan(plan.tailStart);
      expect(fact.after).not.toBe(4); // after the assistant's tool call
    }
    // Every tool result still directly follows its call (or a sibling result).
    const messages = planted.value.messages;
    messages.forEach((message, index) => {
      if (message.role === 'tool')
        expect(messages[index - 1]!.tool_calls?.[0]?.id).toBe(message.tool_call_id);
    });
    // 20 facts on 4 boundaries: five share each.
    expect(new Set(planted.value.facts.map((fact) => fact.after)).size).toBe(4);
  });

  it('moves pinned indices with the planting', () => {
    // One fact, at the middle candidate (6 of [4, 6, 7, 8] for count 1 → index 2 → boundary 7).
    const planted = plantProbeFacts({ messages: transcript(), plan, count: 1, seed: 2, pinned: [2, 7, 10] });
    if (!planted.ok) throw new Error(planted.error.message);
    expect(planted.value.facts[0]!.after).toBe(6);
    expect(planted.value.pinned).toEqual([2, 9, 12]);
    expect(planted.value.messages[9]).toEqual(transcript()[7]);
  });

  it('refuses a plan with nothing compacted, and a count out of range', () => {
    const none = plantProbeFacts({
      messages: transcript(),
      plan: { fates: fates(12, 0, 0), headEnd: 3, tailStart: 9 },
      count: 3,
      seed: 1,
    });
    expect(!none.ok && none.error.type).toBe('NothingToPlantInto');
    for (const count of [0, 21, 2.5]) {
      const bad = plantProbeFacts({ messages: transcript(), plan, count, seed: 1 });
      expect(!bad.ok && bad.error.type).toBe('BadCount');
    }
  });

  it('plants into dropped messages too', () => {
    const dropped = Uint8Array.from(plan.fates, (fate) => (fate === FATE.summarized ? FATE.dropped : fate));
    const planted = plantProbeFacts({
      messages: transcript(),
      plan: { ...plan, fates: dropped },
      count: 2,
      seed: 1,
    });
    expect(planted.ok && planted.value.candidates).toBe(4);
  });
});
