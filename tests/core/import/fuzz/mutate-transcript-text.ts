/**
 * Mutations of a transcript file for importer fuzzing, as plain data fast-check generates and
 * shrinks: every choice (which line, which JSON node, which key, which wrong value) is a small
 * number taken modulo what the text offers, so a shrunk mutation reads as "line 0, node 0, key
 * 0" and replays exactly. `applyMutation` turns one into the mutated text.
 */
import fc from 'fast-check';

const HUGE_LINE_CHARS = 1_000_000;
export const DEEP_NESTING_LEVELS = 10_000;
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

/** Where a structural mutation lands: a line, a JSON node in it, a key or item of that node. */
export interface Target {
  readonly line: number;
  readonly node: number;
  readonly key: number;
  /** Aim at messages, blocks and parts (objects with `role` or `type`) where there are some. */
  readonly preferTyped: boolean;
}

export type Mutation =
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'wrong-type'; readonly target: Target; readonly value: number }
  | { readonly kind: 'delete-field'; readonly target: Target }
  | { readonly kind: 'garbage-line'; readonly line: number; readonly text: string }
  | { readonly kind: 'random-bytes'; readonly at: number; readonly text: string; readonly removes: number }
  | { readonly kind: 'swap-lines'; readonly first: number; readonly second: number }
  | { readonly kind: 'duplicate-line'; readonly line: number; readonly to: number }
  // Claude Code sometimes writes a record without its newline: two records on one line.
  | { readonly kind: 'join-lines'; readonly line: number; readonly space: boolean }
  /** Every id of the text whose turn comes up in `replace` (cycled) becomes id number `target`. */
  | { readonly kind: 'duplicate-ids'; readonly target: number; readonly replace: readonly boolean[] }
  | { readonly kind: 'huge-line'; readonly line: number; readonly json: boolean }
  /** 10,000 levels of `{"a":…}` or `[…]`, as a line of its own or as a value inside a record. */
  | {
      readonly kind: 'deep-nesting';
      readonly object: boolean;
      readonly asLine: boolean;
      readonly line: number;
      readonly target: Target;
      /** Inside a record: replace one of its values rather than add a `nested` key. */
      readonly overwrite: boolean;
    };

/** An index below `count`, from any natural number. */
const choose = (choice: number, count: number): number => (count === 0 ? 0 : choice % count);

const splice = (text: string, change: (lines: string[]) => void): string => {
  const lines = text.split('\n');
  change(lines);
  return lines.join('\n');
};

/**
 * Changes one node of a JSON value: walks it without recursion (the values can be deep) and
 * hands the chosen object or array to `change`.
 */
function mutateJsonValue(
  value: unknown,
  target: Target,
  change: (node: Record<string, unknown> | unknown[]) => void,
): void {
  const nodes: (Record<string, unknown> | unknown[])[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0 && nodes.length < 5000) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    nodes.push(node as Record<string, unknown> | unknown[]);
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push(child);
  }
  const typed = nodes.filter((node) => !Array.isArray(node) && ('role' in node || 'type' in node));
  const pool = target.preferTyped && typed.length > 0 ? typed : nodes;
  if (pool.length > 0) change(pool[choose(target.node, pool.length)]!);
}

/** Parses the target line (or the whole text), changes one node, writes it back; leaves non-JSON alone. */
function mutateStructure(
  text: string,
  target: Target,
  change: (node: Record<string, unknown> | unknown[]) => void,
): string {
  const applyTo = (source: string): string => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(source);
    } catch {
      return source;
    }
    mutateJsonValue(parsed, target, change);
    return JSON.stringify(parsed);
  };
  if (text.split('\n').filter((line) => line.trim()).length <= 1) return applyTo(text);
  return splice(text, (lines) => {
    const index = choose(target.line, lines.length);
    if (lines[index]!.trim()) lines[index] = applyTo(lines[index]!);
  });
}

function setField(node: Record<string, unknown> | unknown[], key: number, wrong: unknown): void {
  if (Array.isArray(node)) {
    if (node.length > 0) node[choose(key, node.length)] = wrong;
    return;
  }
  const keys = Object.keys(node);
  if (keys.length > 0) node[keys[choose(key, keys.length)]!] = wrong;
}

function deleteField(node: Record<string, unknown> | unknown[], key: number): void {
  if (Array.isArray(node)) {
    if (node.length > 0) node.splice(choose(key, node.length), 1);
    return;
  }
  const keys = Object.keys(node);
  if (keys.length > 0) delete node[keys[choose(key, keys.length)]!];
}

/** 10,000 levels of objects or arrays around a 1. */
export function deepNesting(object: boolean): string {
  const open = object ? '{"a":' : '[';
  const close = object ? '}' : ']';
  return `${open.repeat(DEEP_NESTING_LEVELS)}1${close.repeat(DEEP_NESTING_LEVELS)}`;
}

export function applyMutation(text: string, mutation: Mutation): string {
  switch (mutation.kind) {
    case 'truncate':
      return text.slice(0, choose(mutation.at, text.length + 1));
    case 'wrong-type':
      return mutateStructure(text, mutation.target, (node) =>
        setField(
          node,
          mutation.target.key,
          structuredClone(WRONG_VALUES[choose(mutation.value, WRONG_VALUES.length)]),
        ),
      );
    case 'delete-field':
      return mutateStructure(text, mutation.target, (node) => deleteField(node, mutation.target.key));
    case 'garbage-line':
      return splice(text, (lines) => lines.splice(choose(mutation.line, lines.length + 1), 0, mutation.text));
    case 'random-bytes': {
      const at = choose(mutation.at, text.length + 1);
      return text.slice(0, at) + mutation.text + text.slice(at + mutation.removes);
    }
    case 'swap-lines':
      return splice(text, (lines) => {
        const first = choose(mutation.first, lines.length);
        const second = choose(mutation.second, lines.length);
        [lines[first], lines[second]] = [lines[second]!, lines[first]!];
      });
    case 'duplicate-line':
      return splice(text, (lines) => {
        const line = lines[choose(mutation.line, lines.length)]!;
        lines.splice(choose(mutation.to, lines.length + 1), 0, line);
      });
    case 'join-lines':
      return splice(text, (lines) => {
        if (lines.length < 2) return;
        const index = choose(mutation.line, lines.length - 1);
        lines.splice(index, 2, `${lines[index]!}${mutation.space ? ' ' : ''}${lines[index + 1]!}`);
      });
    case 'duplicate-ids': {
      const ids = [...text.matchAll(/"(?:id|uuid|call_id|tool_use_id|tool_call_id)":"([^"]{1,80})"/g)].map(
        (match) => match[1]!,
      );
      if (ids.length === 0 || mutation.replace.length === 0) return text;
      const target = ids[choose(mutation.target, ids.length)]!;
      let turn = 0;
      return text.replace(
        /"(id|uuid|call_id|tool_use_id|tool_call_id)":"[^"]{1,80}"/g,
        (match, key: string) =>
          mutation.replace[turn++ % mutation.replace.length] && ID_KEYS.includes(key)
            ? `"${key}":"${target}"`
            : match,
      );
    }
    case 'huge-line': {
      const huge = mutation.json
        ? JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(HUGE_LINE_CHARS) } })
        : 'y'.repeat(HUGE_LINE_CHARS);
      return splice(text, (lines) => lines.splice(choose(mutation.line, lines.length + 1), 0, huge));
    }
    case 'deep-nesting': {
      const nested = deepNesting(mutation.object);
      if (mutation.asLine)
        return splice(text, (lines) => lines.splice(choose(mutation.line, lines.length + 1), 0, nested));
      // A marker value, swapped for the nested text afterwards: JSON.stringify would overflow on
      // 10,000 levels.
      const withMarker = mutateStructure(text, mutation.target, (node) => {
        if (Array.isArray(node)) node.push(DEEP_MARKER);
        else {
          const keys = Object.keys(node);
          const key =
            mutation.overwrite && keys.length > 0
              ? keys[choose(mutation.target.key, keys.length)]!
              : 'nested';
          node[key] = DEEP_MARKER;
        }
      });
      return withMarker.replace(JSON.stringify(DEEP_MARKER), nested);
    }
  }
}

/** Broken text: control characters, lone surrogates, JSON punctuation, non-ASCII, printable ASCII. */
const garbage = (maxLength: number): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        { withCrossShrink: true },
        fc.integer({ min: 32, max: 126 }).map((code) => String.fromCharCode(code)),
        fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code)),
        fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
        fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', '\n', '\r'),
        fc.constantFrom('😀', '中', 'é', '\u2028', '\ufeff'),
      ),
      { minLength: 1, maxLength },
    )
    .map((characters) => characters.join(''));

const target: fc.Arbitrary<Target> = fc.record({
  line: fc.nat(),
  node: fc.nat(),
  key: fc.nat(),
  // Four in five structural changes aim at typed nodes.
  preferTyped: fc.nat(4).map((roll) => roll < 4),
});

/** Mutations that build megabyte inputs: one case in a few hundred, to keep the run fast. */
const EXPENSIVE_WEIGHT = 1;
const CHEAP_WEIGHT = 33;

export const arbitraryMutation: fc.Arbitrary<Mutation> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }), weight: CHEAP_WEIGHT },
  {
    arbitrary: fc.record({ kind: fc.constant('wrong-type' as const), target, value: fc.nat() }),
    weight: CHEAP_WEIGHT,
  },
  { arbitrary: fc.record({ kind: fc.constant('delete-field' as const), target }), weight: CHEAP_WEIGHT },
  {
    arbitrary: fc.record({ kind: fc.constant('garbage-line' as const), line: fc.nat(), text: garbage(80) }),
    weight: CHEAP_WEIGHT,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('random-bytes' as const),
      at: fc.nat(),
      text: garbage(16),
      removes: fc.nat(7),
    }),
    weight: CHEAP_WEIGHT,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('swap-lines' as const), first: fc.nat(), second: fc.nat() }),
    weight: CHEAP_WEIGHT,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('duplicate-line' as const), line: fc.nat(), to: fc.nat() }),
    weight: CHEAP_WEIGHT,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('join-lines' as const), line: fc.nat(), space: fc.boolean() }),
    weight: CHEAP_WEIGHT,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('duplicate-ids' as const),
      target: fc.nat(),
      // About three ids in ten are replaced, as before.
      replace: fc.array(
        fc.nat(9).map((roll) => roll >= 7),
        { minLength: 1, maxLength: 10 },
      ),
    }),
    weight: CHEAP_WEIGHT,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('deep-nesting' as const),
      object: fc.boolean(),
      asLine: fc.boolean(),
      line: fc.nat(),
      target,
      overwrite: fc.boolean(),
    }),
    weight: CHEAP_WEIGHT,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('huge-line' as const), line: fc.nat(), json: fc.boolean() }),
    weight: EXPENSIVE_WEIGHT,
  },
);
