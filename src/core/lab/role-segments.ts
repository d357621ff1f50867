import type { MessageRoles } from './message-roles.ts';

/** A stretch of the token bar: messages `[start, end)`, drawn in one role's colour. */
export interface RoleSegment {
  role: string;
  start: number;
  end: number;
  tokens: number;
}

export interface RoleSegments {
  /** At most `maxSegments`, in message order, their tokens adding up to all messages'. */
  segments: RoleSegment[];
  /** Every role's tokens, in order of the role's first message. */
  tokensByRole: Array<[string, number]>;
}

/**
 * The token bar of a transcript: consecutive messages of one role share a segment, so widths stay
 * exactly token-proportional; beyond `maxSegments` such runs, runs are gathered into buckets of
 * about `total / maxSegments` tokens, each drawn in the colour of the role with the most tokens in
 * it (the first such role on a tie).
 *
 * One pass over the messages with no object per run: a 33,736-message Claude Code import has
 * ~25,000 runs (assistant, tool, user alternate), and building them as objects first made this a
 * 20–30 ms part of a main-thread task.
 */
export function roleSegments(
  roles: MessageRoles,
  tokens: ArrayLike<number>,
  total: number,
  maxSegments: number,
): RoleSegments {
  const { codes, names } = roles;
  const byRole = new Float64Array(names.length);
  const roleOrder: number[] = [];
  let runs = 0;
  for (let index = 0; index < codes.length; index++) {
    const code = codes[index]!;
    if (index === 0 || code !== codes[index - 1]) runs++;
    if (byRole[code] === 0 && !roleOrder.includes(code)) roleOrder.push(code);
    byRole[code] = byRole[code]! + (tokens[index] ?? 0);
  }
  const tokensByRole = roleOrder.map((code): [string, number] => [names[code] ?? '', byRole[code]!]);
  const segments =
    runs <= maxSegments ? runSegments(roles, tokens) : bucketSegments(roles, tokens, total, maxSegments);
  return { segments, tokensByRole };
}

/** One segment per run of messages of one role. */
function runSegments(roles: MessageRoles, tokens: ArrayLike<number>): RoleSegment[] {
  const { codes, names } = roles;
  const segments: RoleSegment[] = [];
  let last: RoleSegment | undefined;
  for (let index = 0; index < codes.length; index++) {
    const count = tokens[index] ?? 0;
    if (last !== undefined && codes[index] === codes[index - 1]) {
      last.end = index + 1;
      last.tokens += count;
    } else {
      last = { role: names[codes[index]!] ?? '', start: index, end: index + 1, tokens: count };
      segments.push(last);
    }
  }
  return segments;
}

/** Runs gathered into buckets of about `total / maxSegments` tokens; a run is never split. */
function bucketSegments(
  roles: MessageRoles,
  tokens: ArrayLike<number>,
  total: number,
  maxSegments: number,
): RoleSegment[] {
  const { codes, names } = roles;
  const bucketTokens = Math.max(1, total / maxSegments);
  const segments: RoleSegment[] = [];
  // The open bucket: its first message, its tokens, each role's tokens in it and their order.
  let bucketStart = -1;
  let bucketTotal = 0;
  const roleTokens = new Float64Array(names.length);
  const roleOrder: number[] = [];
  const flush = (end: number): void => {
    if (bucketStart < 0) return;
    let role = '';
    let most = -1;
    for (const code of roleOrder) {
      if (roleTokens[code]! > most) {
        most = roleTokens[code]!;
        role = names[code] ?? '';
      }
      roleTokens[code] = 0;
    }
    segments.push({ role, start: bucketStart, end, tokens: bucketTotal });
    roleOrder.length = 0;
    bucketStart = -1;
    bucketTotal = 0;
  };
  let runStart = 0;
  let runTokens = 0;
  for (let index = 0; index <= codes.length; index++) {
    if (index > 0 && (index === codes.length || codes[index] !== codes[index - 1])) {
      // The run [runStart, index) ends: it joins the open bucket, which may then be full.
      const code = codes[runStart]!;
      if (bucketStart < 0) bucketStart = runStart;
      bucketTotal += runTokens;
      if (!roleOrder.includes(code)) roleOrder.push(code);
      roleTokens[code] = roleTokens[code]! + runTokens;
      if (bucketTotal >= bucketTokens) flush(index);
      runStart = index;
      runTokens = 0;
    }
    if (index < codes.length) runTokens += tokens[index] ?? 0;
  }
  flush(codes.length);
  return segments;
}
