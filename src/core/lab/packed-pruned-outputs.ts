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

/** The output at `position` of a packed list. */
function outputAt(packed: PackedPrunedOutputs, position: number): PrunedToolOutput {
  return {
    index: packed.indices[position]!,
    kind: PRUNED_KINDS[packed.kinds[position]!]!,
    toolName: packed.toolNames[packed.toolNameCodes[position]!]!,
    originalChars: packed.originalChars[position]!,
    replacement: packed.replacements.slice(
      position === 0 ? 0 : packed.replacementEnds[position - 1]!,
      packed.replacementEnds[position],
    ),
  };
}

export function unpackPrunedOutputs(packed: PackedPrunedOutputs): PrunedToolOutput[] {
  const outputs: PrunedToolOutput[] = [];
  for (let position = 0; position < packed.indices.length; position++)
    outputs.push(outputAt(packed, position));
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
  const plan = Object.defineProperty({ ...rest } as LabPlan, 'pruned', {
    get: () => (pruned ??= unpackPrunedOutputs(prunedPacked)),
    enumerable: true,
  });
  packedOutputs.set(plan, prunedPacked);
  return plan;
}

/** A message's pruned output, the first the plan lists for it (its own, before any other). */
export interface PrunedOutputLookup {
  get(messageIndex: number): PrunedToolOutput | undefined;
}

/** The packed outputs of each plan `unpackLabPlan` made, so a lookup need not unpack them. */
const packedOutputs = new WeakMap<LabPlan, PackedPrunedOutputs>();
const lookups = new WeakMap<LabPlan, PrunedOutputLookup>();

/**
 * The message list's view of a plan's pruned outputs: it shows a few dozen rows, so it makes the
 * outputs of those rows only. For a plan from the worker the lookup is built from the packed
 * arrays (a typed array from message to position); unpacking all 17,948 outputs of a 33,736-message
 * import and mapping them by message was 25–30 ms of the list's first task after an import.
 */
export function prunedOutputLookup(plan: LabPlan): PrunedOutputLookup {
  let lookup = lookups.get(plan);
  if (lookup) return lookup;
  const packed = packedOutputs.get(plan);
  if (packed) {
    let end = 0;
    for (const index of packed.indices) end = Math.max(end, index + 1);
    const first = new Int32Array(end).fill(-1);
    // Backwards, so the first position listed for a message is the one kept.
    for (let position = packed.indices.length - 1; position >= 0; position--)
      first[packed.indices[position]!] = position;
    const made = new Map<number, PrunedToolOutput>();
    lookup = {
      get(messageIndex) {
        const position = messageIndex >= 0 && messageIndex < end ? first[messageIndex]! : -1;
        if (position < 0) return undefined;
        let output = made.get(position);
        if (!output) made.set(position, (output = outputAt(packed, position)));
        return output;
      },
    };
  } else {
    const byIndex = new Map<number, PrunedToolOutput>();
    for (const output of plan.pruned) if (!byIndex.has(output.index)) byIndex.set(output.index, output);
    lookup = byIndex;
  }
  lookups.set(plan, lookup);
  return lookup;
}
