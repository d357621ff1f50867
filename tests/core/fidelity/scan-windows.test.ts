import { describe, expect, it } from 'vitest';
import { SCAN_HEAD_CHARACTERS, SCAN_TAIL_CHARACTERS, scanWindows } from '#core/fidelity/scan-windows.ts';

describe('scanWindows', () => {
  it('reads a short text whole and an empty one not at all', () => {
    expect(scanWindows('abc')).toEqual(['abc']);
    expect(scanWindows('')).toEqual([]);
  });

  it('reads a long text at its start and its end only', () => {
    const text = `${'h'.repeat(SCAN_HEAD_CHARACTERS)}${'m'.repeat(100)}${'t'.repeat(SCAN_TAIL_CHARACTERS)}`;
    const [head, tail] = scanWindows(text);
    expect(head).toBe('h'.repeat(SCAN_HEAD_CHARACTERS));
    expect(tail).toBe('t'.repeat(SCAN_TAIL_CHARACTERS));
  });
});
