import { describe, expect, it } from 'vitest';
import type { PrunedToolOutput } from '#core/compression/prune-old-tool-results.ts';
import type { LabPlan } from '#core/lab/lab-plan.ts';
import {
  packedOutputBuffers,
  packLabPlan,
  packPrunedOutputs,
  prunedOutputLookup,
  unpackLabPlan,
  unpackPrunedOutputs,
} from '#core/lab/packed-pruned-outputs.ts';

const OUTPUTS: PrunedToolOutput[] = [
  {
    index: 4,
    kind: 'one-liner',
    toolName: 'terminal',
    originalChars: 12_000,
    replacement: '[terminal] ran `ls` → 3 lines',
  },
  { index: 4, kind: 'arguments', toolName: 'terminal', originalChars: 300, replacement: '' },
  {
    index: 9,
    kind: 'duplicate',
    toolName: 'read_file',
    originalChars: 5,
    replacement: 'same as #7 — 😀 中文',
  },
  { index: 11, kind: 'image', toolName: '', originalChars: 1.5, replacement: '[image]' },
];

describe('packed pruned outputs', () => {
  it('unpacks to the same outputs, in order, whatever their kind, tool and text', () => {
    expect(unpackPrunedOutputs(packPrunedOutputs(OUTPUTS))).toEqual(OUTPUTS);
    expect(unpackPrunedOutputs(packPrunedOutputs([]))).toEqual([]);
  });

  it('survives a structured clone (the trip from the worker) as typed arrays', () => {
    const packed = structuredClone(packPrunedOutputs(OUTPUTS));
    expect(packed.toolNames).toEqual(['terminal', 'read_file', '']);
    expect(packed.replacementUnits).toBeInstanceOf(Uint16Array);
    expect(unpackPrunedOutputs(packed)).toEqual(OUTPUTS);
  });

  it('gives back every code unit exactly: lone surrogates, and a long text cut where a pair straddles its pieces', () => {
    // 8,191 units, then a surrogate pair across the 8,192-unit pieces the units are read in.
    const long = `${'a'.repeat(8_191)}😀${'b'.repeat(20_000)}`;
    const odd: PrunedToolOutput[] = [
      {
        index: 1,
        kind: 'one-liner',
        toolName: 't',
        originalChars: 9,
        replacement: 'lone \ud800 high, lone \udfff low',
      },
      { index: 2, kind: 'one-liner', toolName: 't', originalChars: 9, replacement: long },
    ];
    const packed = structuredClone(packPrunedOutputs(odd));
    expect(unpackPrunedOutputs(packed)).toEqual(odd);
    const plan = unpackLabPlan(structuredClone(packLabPlan({ pruned: odd } as unknown as LabPlan)));
    expect(prunedOutputLookup(plan).get(1)?.replacement).toBe(odd[0]!.replacement);
    expect(prunedOutputLookup(plan).get(2)?.replacement).toBe(long);
  });

  it('hands its arrays over in a transfer, each with a buffer of its own, and arrives whole', () => {
    const packed = packPrunedOutputs(OUTPUTS);
    const buffers = packedOutputBuffers(packed);
    expect(new Set(buffers).size).toBe(buffers.length);
    const arrived = structuredClone(packed, { transfer: buffers });
    expect(unpackPrunedOutputs(arrived)).toEqual(OUTPUTS);
    // Moved, not copied: the sender's arrays are empty now.
    expect(packed.replacementUnits.length).toBe(0);
    expect(packed.indices.length).toBe(0);
  });

  it('carries the rest of a plan unchanged', () => {
    const plan = { windowTokens: 200_000, revision: 3, pruned: OUTPUTS } as unknown as LabPlan;
    const packed = packLabPlan(plan);
    expect('pruned' in packed).toBe(false);
    expect(unpackLabPlan(structuredClone(packed))).toEqual(plan);
  });

  it('looks a message up to its first listed output, from the packed arrays, each output made once', () => {
    const plan = { windowTokens: 200_000, pruned: OUTPUTS } as unknown as LabPlan;
    const fromWorker = unpackLabPlan(structuredClone(packLabPlan(plan)));
    const lookup = prunedOutputLookup(fromWorker);
    expect(lookup.get(4)).toEqual(OUTPUTS[0]);
    expect(lookup.get(9)).toEqual(OUTPUTS[2]);
    expect(lookup.get(11)).toEqual(OUTPUTS[3]);
    for (const index of [-1, 0, 5, 10, 12, 1_000]) expect(lookup.get(index)).toBeUndefined();
    expect(lookup.get(9)).toBe(lookup.get(9));
    expect(prunedOutputLookup(fromWorker)).toBe(lookup);
    // A plan made on the page (never packed) answers the same.
    const local = prunedOutputLookup(plan);
    for (const index of [4, 9, 11, 5]) expect(local.get(index)).toEqual(lookup.get(index));
  });
});
