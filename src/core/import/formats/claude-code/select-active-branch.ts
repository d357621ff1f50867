/** What branch selection needs to know about one Claude Code record. */
export interface ThreadNode {
  uuid?: string;
  parentUuid?: string;
  /** Set on compact boundaries, whose `parentUuid` is null: the record before the compaction. */
  logicalParentUuid?: string;
  /** A user or assistant record (one that produces messages). */
  isConversation: boolean;
  /**
   * Whether starting here a sibling branch can be abandoned: a typed prompt or a regenerated
   * answer. Tool-result records and bookkeeping never are, so parallel tool results that some
   * versions thread to their own call are never lost.
   */
  canStartBranch: boolean;
  /**
   * The API response this record belongs to (Claude Code's `message.id`). Claude Code writes
   * one record per content block, so a response with parallel tool calls is several records
   * whose parent links fork; records of one response are never a rewind.
   */
  responseId?: string;
}

/**
 * The records to drop because they sit on branches the conversation left (a rewind or a
 * fork): the active branch runs from the last conversation record up through its parents
 * (crossing compactions through `logicalParentUuid`), and every sibling subtree hanging off
 * it that holds conversation records is abandoned. Every record of a response that has a
 * record on the active branch counts as on it (parallel calls and the results threaded to
 * them fork the links, but they are one turn). Records whose parents are absent or null stay
 * in file order. Iterative throughout, with cycle guards: parent links come from the file.
 */
export function selectAbandonedRecords(nodes: readonly ThreadNode[], leafIndex: number): Set<number> {
  const indexByUuid = new Map<string, number>();
  nodes.forEach((node, index) => {
    if (node.uuid && !indexByUuid.has(node.uuid)) indexByUuid.set(node.uuid, index);
  });
  const parentOf = (index: number): number => {
    const node = nodes[index]!;
    for (const candidate of [node.parentUuid, node.logicalParentUuid]) {
      if (!candidate || candidate === node.uuid) continue;
      const parent = indexByUuid.get(candidate);
      if (parent !== undefined && parent !== index) return parent;
    }
    return -1;
  };
  const children = new Map<number, number[]>();
  nodes.forEach((_node, index) => {
    const parent = parentOf(index);
    if (parent === -1) return;
    const siblings = children.get(parent);
    if (siblings) siblings.push(index);
    else children.set(parent, [index]);
  });

  const activeChain = new Set<number>();
  for (let index = leafIndex; index !== -1 && !activeChain.has(index); index = parentOf(index))
    activeChain.add(index);

  const activeResponses = new Set<string>();
  for (const index of activeChain) {
    const responseId = nodes[index]!.responseId;
    if (responseId) activeResponses.add(responseId);
  }
  const onActiveBranch = new Set(activeChain);
  nodes.forEach((node, index) => {
    if (node.responseId && activeResponses.has(node.responseId)) onActiveBranch.add(index);
  });

  const abandoned = new Set<number>();
  for (const branchIndex of onActiveBranch) {
    for (const child of children.get(branchIndex) ?? []) {
      if (onActiveBranch.has(child) || abandoned.has(child) || !nodes[child]!.canStartBranch) continue;
      const subtree = collectSubtree(child, children, onActiveBranch);
      if (subtree.some((index) => nodes[index]!.isConversation))
        for (const index of subtree) abandoned.add(index);
    }
  }
  return abandoned;
}

function collectSubtree(root: number, children: Map<number, number[]>, activeChain: Set<number>): number[] {
  const seen = new Set<number>([root]);
  const stack = [root];
  while (stack.length > 0) {
    const index = stack.pop()!;
    for (const child of children.get(index) ?? []) {
      if (seen.has(child) || activeChain.has(child)) continue;
      seen.add(child);
      stack.push(child);
    }
  }
  return [...seen];
}
