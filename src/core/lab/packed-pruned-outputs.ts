import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import type { LabPlan } from './lab-plan.ts';

const PRUNED_KINDS: readonly PrunedToolOutput['kind'][] = ['duplicate', 'one-liner', 'image', 'arguments'];

/**
 * A plan's pruned outputs as a few typed arrays and one string, for the trip from the worker to
 * the page. Why: a 33,736-message import's plan lists 17,948 of them (4.7 MB structured-cloned,
 * 25–50 ms to clone on this machine, most of it deserialising on the page's main thread, on every
 * plan); typed arrays and one string are copied, not rebuilt field by field.
 */
export interface PackedPrunedOutputs {
  readonly indices: Int32Array;
  /** Codes into the kinds of `PrunedToolOutput`, in the order of `PRUNED_KINDS`. */
  readonly kinds: Uint8Array;
  readonly originalChars: Float64Array;
  /** Distinct tool names; `toolNameCodes` points into them. */
  readonly toolNames: readonly string[];
  readonly toolNameCodes: Uint32Array;
  /** Every replacement, one after another; output i's ends at `replacementEnds[i]`. */
  readonly replacements: string;
  readonly replacementEnds: Uint32Array;
}

/** A plan as the worker sends it: its pruned outputs packed. */
export type PackedLabPlan = Omit<LabPlan, 'pruned'> & { readonly prunedPacked: PackedPrunedOutputs };

export function packPrunedOutputs(outputs: readonly PrunedToolOutput[]): PackedPrunedOutputs {
  const count = outputs.length;
  const indices = new Int32Array(count);
  const kinds = new Uint8Array(count);
  const originalChars = new Float64Array(count);
  const toolNames: string[] = [];
  const toolNameCode = new Map<string, number>();
  const toolNameCodes = new Uint32Array(count);
  const replacementEnds = new Uint32Array(count);
  let end = 0;
  outputs.forEach((output, position) => {
    indices[position] = output.index;
    kinds[position] = PRUNED_KINDS.indexOf(output.kind);
    originalChars[position] = output.originalChars;
    let code = toolNameCode.get(output.toolName);
    if (code === undefined) {
      code = toolNames.length;
      toolNames.push(output.toolName);
      toolNameCode.set(output.toolName, code);
    }
    toolNameCodes[position] = code;
    end += output.replacement.length;
    replacementEnds[position] = end;
  });
  return {
    indices,
    kinds,
    originalChars,
    toolNames,
    toolNameCodes,
    replacements: outputs.map((output) => output.replacement).join(''),
    replacementEnds,
  };
}

export function unpackPrunedOutputs(packed: PackedPrunedOutputs): PrunedToolOutput[] {
  const outputs: PrunedToolOutput[] = [];
  let start = 0;
  for (let position = 0; position < packed.indices.length; position++) {
    const end = packed.replacementEnds[position]!;
    outputs.push({
      index: packed.indices[position]!,
      kind: PRUNED_KINDS[packed.kinds[position]!]!,
      toolName: packed.toolNames[packed.toolNameCodes[position]!]!,
      originalChars: packed.originalChars[position]!,
      replacement: packed.replacements.slice(start, end),
    });
    start = end;
  }
  return outputs;
}

export function packLabPlan(plan: LabPlan): PackedLabPlan {
  const { pruned, ...rest } = plan;
  return { ...rest, prunedPacked: packPrunedOutputs(pruned) };
}

/**
 * The plan as the page uses it. Its pruned outputs are unpacked on first read, not on arrival:
 * the plan reply draws the context map, which never reads them, and 17,948 outputs made objects
 * at once were a quarter of that main-thread task; the list and the replay read them later.
 */
export function unpackLabPlan(packed: PackedLabPlan): LabPlan {
  const { prunedPacked, ...rest } = packed;
  let pruned: PrunedToolOutput[] | undefined;
  return Object.defineProperty({ ...rest } as LabPlan, 'pruned', {
    get: () => (pruned ??= unpackPrunedOutputs(prunedPacked)),
    enumerable: true,
  });
}
