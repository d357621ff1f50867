import type { SeededRandom } from './seeded-random.ts';

/** One mutation applied to an input, named for the failure report. */
export interface Mutation {
  name: string;
  apply(text: string, random: SeededRandom): string;
}

const HUGE_LINE_CHARS = 1_000_000;
const DEEP_NESTING_LEVELS = 10_000;
const DEEP_MARKER = '\u0001deep\u0001';
const ID_KEYS = [
  'id',
  'uuid',
  'parentUuid',
  'call_id',
  'tool_call_id',
  'tool_use_id',
  'session_id',
  'parent_session_id',
];

const WRONG_VALUES: readonly unknown[] = [
  null,
  0,
  -1,
  1.5e308,
  '',
  'x',
  true,
  [],
  {},
  [1, 'a'],
  { type: 'text' },
  '\u0000',
];

/** Splits into lines, mutates one or some, joins back (keeps JSONL shape, breaks it on purpose). */
function mapLines(text: string, random: SeededRandom, change: (line: string) => string): string {
  const lines = text.split('\n');
  const index = random.below(lines.length);
  lines[index] = change(lines[index]!);
  return lines.join('\n');
}

/**
 * Mutates a JSON value in place at a random node: walks it without recursion (the values can be
 * deep) and changes one object or array it meets.
 */
function mutateJsonValue(
  value: unknown,
  random: SeededRandom,
  change: (node: Record<string, unknown> | unknown[], random: SeededRandom) => void,
  prefer?: (node: Record<string, unknown> | unknown[]) => boolean,
): void {
  const nodes: (Record<string, unknown> | unknown[])[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0 && nodes.length < 5000) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    nodes.push(node as Record<string, unknown> | unknown[]);
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push(child);
  }
  const preferred = prefer ? nodes.filter(prefer) : [];
  const pool = preferred.length > 0 && random.chance(0.8) ? preferred : nodes;
  if (pool.length > 0) change(random.pick(pool), random);
}

/** Parses a line or the whole text, changes one node, writes it back; leaves non-JSON alone. */
function mutateStructure(
  change: (node: Record<string, unknown> | unknown[], random: SeededRandom) => void,
  prefer?: (node: Record<string, unknown> | unknown[]) => boolean,
) {
  return (text: string, random: SeededRandom): string => {
    const applyTo = (source: string): string => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(source);
      } catch {
        return source;
      }
      mutateJsonValue(parsed, random, change, prefer);
      return JSON.stringify(parsed);
    };
    const lines = text.split('\n').filter((line) => line.trim());
    if (lines.length > 1) return mapLines(text, random, (line) => (line.trim() ? applyTo(line) : line));
    return applyTo(text);
  };
}

const setRandomField = (node: Record<string, unknown> | unknown[], random: SeededRandom): void => {
  const wrong = structuredClone(random.pick(WRONG_VALUES));
  if (Array.isArray(node)) {
    if (node.length > 0) node[random.below(node.length)] = wrong;
    return;
  }
  const keys = Object.keys(node);
  if (keys.length > 0) node[random.pick(keys)] = wrong;
};

const deleteRandomField = (node: Record<string, unknown> | unknown[], random: SeededRandom): void => {
  if (Array.isArray(node)) {
    if (node.length > 0) node.splice(random.below(node.length), 1);
    return;
  }
  const keys = Object.keys(node);
  if (keys.length > 0) delete node[random.pick(keys)];
};

function randomText(random: SeededRandom, length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) {
    const kind = random.below(6);
    if (kind === 0) text += String.fromCharCode(random.below(32));
    else if (kind === 1)
      text += String.fromCharCode(0xd800 + random.below(0x800)); // lone surrogates
    else if (kind === 2) text += random.pick(['{', '}', '[', ']', '"', ':', ',', '\\', '\n', '\r']);
    else if (kind === 3) text += random.pick(['😀', '中', 'é', '\u2028', '\ufeff']);
    else text += String.fromCharCode(32 + random.below(95));
  }
  return text;
}

function deepNesting(random: SeededRandom): string {
  const open = random.chance(0.5) ? '{"a":' : '[';
  const close = open === '[' ? ']' : '}';
  return `${open.repeat(DEEP_NESTING_LEVELS)}1${close.repeat(DEEP_NESTING_LEVELS)}`;
}

export const MUTATIONS: readonly Mutation[] = [
  { name: 'truncate', apply: (text, random) => text.slice(0, random.below(text.length + 1)) },
  { name: 'wrong-type', apply: mutateStructure(setRandomField) },
  { name: 'delete-field', apply: mutateStructure(deleteRandomField) },
  {
    name: 'garbage-line',
    apply: (text, random) => {
      const lines = text.split('\n');
      lines.splice(random.below(lines.length + 1), 0, randomText(random, 1 + random.below(80)));
      return lines.join('\n');
    },
  },
  {
    name: 'random-bytes',
    apply: (text, random) => {
      const at = random.below(text.length + 1);
      return text.slice(0, at) + randomText(random, 1 + random.below(16)) + text.slice(at + random.below(8));
    },
  },
  {
    name: 'swap-lines',
    apply: (text, random) => {
      const lines = text.split('\n');
      const first = random.below(lines.length);
      const second = random.below(lines.length);
      [lines[first], lines[second]] = [lines[second]!, lines[first]!];
      return lines.join('\n');
    },
  },
  {
    name: 'duplicate-line',
    apply: (text, random) => {
      const lines = text.split('\n');
      const index = random.below(lines.length);
      lines.splice(random.below(lines.length + 1), 0, lines[index]!);
      return lines.join('\n');
    },
  },
  {
    // Claude Code sometimes writes a record without its newline: two records on one line.
    name: 'join-lines',
    apply: (text, random) => {
      const lines = text.split('\n');
      if (lines.length < 2) return text;
      const index = random.below(lines.length - 1);
      lines.splice(index, 2, `${lines[index]!}${random.chance(0.5) ? '' : ' '}${lines[index + 1]!}`);
      return lines.join('\n');
    },
  },
  {
    name: 'duplicate-ids',
    apply: (text, random) => {
      const ids = [...text.matchAll(/"(?:id|uuid|call_id|tool_use_id|tool_call_id)":"([^"]{1,80})"/g)].map(
        (match) => match[1]!,
      );
      if (ids.length === 0) return text;
      const target = random.pick(ids);
      return text.replace(
        /"(id|uuid|call_id|tool_use_id|tool_call_id)":"[^"]{1,80}"/g,
        (match, key: string) =>
          random.chance(0.3) && ID_KEYS.includes(key) ? `"${key}":"${target}"` : match,
      );
    },
  },
  {
    name: 'huge-line',
    apply: (text, random) => {
      const lines = text.split('\n');
      const huge = random.chance(0.5)
        ? JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(HUGE_LINE_CHARS) } })
        : 'y'.repeat(HUGE_LINE_CHARS);
      lines.splice(random.below(lines.length + 1), 0, huge);
      return lines.join('\n');
    },
  },
  {
    name: 'deep-nesting',
    apply: (text, random) => {
      const nested = deepNesting(random);
      if (random.chance(0.5)) {
        const lines = text.split('\n');
        lines.splice(random.below(lines.length + 1), 0, nested);
        return lines.join('\n');
      }
      // A marker value, swapped for the nested text afterwards: the test's own JSON.stringify
      // would overflow on 10,000 levels.
      // Mostly aimed at messages, blocks and parts (objects with `role` or `type`), where a
      // foreign value could be kept verbatim.
      const withMarker = mutateStructure(
        (node, inner) => {
          if (Array.isArray(node)) node.push(DEEP_MARKER);
          else {
            const keys = Object.keys(node);
            node[keys.length > 0 && inner.chance(0.5) ? inner.pick(keys) : 'nested'] = DEEP_MARKER;
          }
        },
        (node) => !Array.isArray(node) && ('role' in node || 'type' in node),
      )(text, random);
      return withMarker.replace(JSON.stringify(DEEP_MARKER), nested);
    },
  },
];

/** Mutations that build megabyte inputs: used in a fraction of cases to keep the run fast. */
export const EXPENSIVE_MUTATIONS = new Set(['huge-line']);
