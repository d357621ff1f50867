import { describe, expect, it } from 'vitest';
import {
  selectAbandonedRecords,
  type ThreadNode,
} from '#core/import/formats/claude-code/select-active-branch.ts';

const node = (uuid: string, parentUuid: string | undefined, extra: Partial<ThreadNode> = {}): ThreadNode => ({
  uuid,
  ...(parentUuid ? { parentUuid } : {}),
  isConversation: true,
  canStartBranch: true,
  ...extra,
});

describe('selectAbandonedRecords', () => {
  it('drops the branch a rewind left and keeps the one leading to the last record', () => {
    const nodes = [
      node('u1', undefined),
      node('a1', 'u1'),
      node('old-u', 'a1'),
      node('old-a', 'old-u'),
      node('new-u', 'a1'),
      node('new-a', 'new-u'),
    ];
    expect([...selectAbandonedRecords(nodes, 5)].sort()).toEqual([2, 3]);
  });

  it('follows logicalParentUuid across a compaction boundary', () => {
    const nodes = [
      node('u1', undefined),
      node('a1', 'u1'),
      node('x-u', 'a1'),
      node('y-u', 'a1'),
      node('boundary', undefined, { logicalParentUuid: 'y-u', isConversation: false, canStartBranch: false }),
      node('after', 'boundary'),
    ];
    expect([...selectAbandonedRecords(nodes, 5)]).toEqual([2]);
  });

  it('never abandons tool-result records threaded to their own call', () => {
    const nodes = [
      node('a1', undefined),
      node('a2', 'a1'),
      node('r1', 'a1', { canStartBranch: false }),
      node('r2', 'a2'),
    ];
    expect(selectAbandonedRecords(nodes, 3).size).toBe(0);
  });

  it('keeps every record of a response on the active branch, wherever its parent link points', () => {
    // One response (msg_x) with two parallel calls; the next response continued from call 1's result.
    const nodes = [
      node('u1', undefined),
      node('c1', 'u1', { responseId: 'msg_x' }),
      node('c2', 'c1', { responseId: 'msg_x' }),
      node('r2', 'c2', { canStartBranch: false }),
      node('r1', 'c1', { canStartBranch: false }),
      node('next', 'r1', { responseId: 'msg_y' }),
    ];
    expect(selectAbandonedRecords(nodes, 5).size).toBe(0);
    // The same shape with a different response id on c2 is a regenerated answer: a fork.
    nodes[2] = node('c2', 'c1', { responseId: 'msg_regenerated' });
    expect([...selectAbandonedRecords(nodes, 5)].sort()).toEqual([2, 3]);
  });

  it('stops on parent cycles and self references', () => {
    const nodes = [node('x', 'y'), node('y', 'x'), node('z', 'z')];
    expect(selectAbandonedRecords(nodes, 2).size).toBe(0);
    expect(selectAbandonedRecords(nodes, 1).size).toBe(0);
  });
});
