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
  /**
   * Every replacement's UTF-16 code units, one after another; output i's end at
   * `replacementEnds[i]`. A typed array, not one string: the page read the 2.1M characters of a
   * 33,736-message import's replacements as a string in 12–36 ms of the task the plan arrived in
   * (plus the garbage collection it brought on, reopening that session after a reload: a 91 ms
   * task), the same code units as a typed array in well under a millisecond. A replacement is
   * made a string when it is read, exactly (lone surrogates included).
   */
  readonly replacementUnits: Uint16Array;
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
  let units = 0;
  for (const output of outputs) units += output.replacement.length;
  const replacementUnits = new Uint16Array(units);
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
    const text = output.replacement;
    for (let unit = 0; unit < text.length; unit++) replacementUnits[end + unit] = text.charCodeAt(unit);
    end += text.length;
    replacementEnds[position] = end;
  });
  return {
    indices,
    kinds,
    originalChars,
    toolNames,
    toolNameCodes,
    replacementUnits,
    replacementEnds,
  };
}

/** Code units turned into a string per call: far below any engine's limit on arguments. */
const DECODE_CHUNK_UNITS = 8192;

/** `units[start, end)` as the string they are the code units of. */
function unitsToString(units: Uint16Array, start: number, end: number): string {
  const chunk = (from: number, to: number): string =>
    String.fromCharCode.apply(null, units.subarray(from, to) as unknown as number[]);
  if (end - start <= DECODE_CHUNK_UNITS) return chunk(start, end);
  const parts: string[] = [];
  for (let from = start; from < end; from += DECODE_CHUNK_UNITS)
    parts.push(chunk(from, Math.min(end, from + DECODE_CHUNK_UNITS)));
  return parts.join('');
}

const replacementStart = (packed: PackedPrunedOutputs, position: number): number =>
  position === 0 ? 0 : packed.replacementEnds[position - 1]!;

/** The output at `position` of a packed list. */
function outputAt(packed: PackedPrunedOutputs, position: number): PrunedToolOutput {
  return {
    index: packed.indices[position]!,
    kind: PRUNED_KINDS[packed.kinds[position]!]!,
    toolName: packed.toolNames[packed.toolNameCodes[position]!]!,
    originalChars: packed.originalChars[position]!,
    replacement: unitsToString(
      packed.replacementUnits,
      replacementStart(packed, position),
      packed.replacementEnds[position]!,
    ),
  };
}

/**
 * Every output, each replacement made a string when it is first read: the replay's list of
 * outputs shows a screenful of them, and reading all 2.1M units of a 33,736-message plan at once
 * (by `String.fromCharCode`, as one string then cut) took 32–68 ms.
 */
export function unpackPrunedOutputs(packed: PackedPrunedOutputs): PrunedToolOutput[] {
  const outputs: PrunedToolOutput[] = [];
  for (let position = 0; position < packed.indices.length; position++) {
    let replacement: string | undefined;
    outputs.push({
      index: packed.indices[position]!,
      kind: PRUNED_KINDS[packed.kinds[position]!]!,
      toolName: packed.toolNames[packed.toolNameCodes[position]!]!,
      originalChars: packed.originalChars[position]!,
      get replacement() {
        return (replacement ??= unitsToString(
          packed.replacementUnits,
          replacementStart(packed, position),
          packed.replacementEnds[position]!,
        ));
      },
    });
  }
  return outputs;
}

/**
 * The buffers of a packed list's typed arrays, each its own and new (`packPrunedOutputs` made
 * them), for a worker to hand over with its reply instead of having them copied: the page took
 * 24–42 ms to receive a 4.3 MB typed array copied from the worker on this VM, nothing when it was
 * transferred.
 */
export function packedOutputBuffers(packed: PackedPrunedOutputs): ArrayBuffer[] {
  return [
    packed.indices,
    packed.kinds,
    packed.originalChars,
    packed.toolNameCodes,
    packed.replacementUnits,
    packed.replacementEnds,
  ].map((array) => array.buffer as ArrayBuffer);
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
    const { indices } = packed;
    let end = 0;
    // Indexed loops: on a page just reloaded this runs in the interpreter, where `for…of` over a
    // typed array costs several times more.
    for (let position = 0; position < indices.length; position++) end = Math.max(end, indices[position]! + 1);
    const first = new Int32Array(end).fill(-1);
    // Backwards, so the first position listed for a message is the one kept.
    for (let position = indices.length - 1; position >= 0; position--) first[indices[position]!] = position;
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
