import { arch, cpus, loadavg, platform, release } from 'node:os';
import type { MachineInfo } from './bench-result.ts';
import { median } from './bench-stats.ts';

/** What the figures were measured on; the load average matters on shared machines. */
export function describeMachine(chromium: string | null): MachineInfo {
  const processors = cpus();
  return {
    cores: processors.length,
    cpu: processors[0]?.model.trim() ?? 'unknown',
    node: process.version,
    chromium,
    platform: `${platform()} ${release()} ${arch()}`,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
    firstTouchMicrosPerPage: measureFirstTouch(),
    date: new Date().toISOString(),
  };
}

export function formatMachine(machine: MachineInfo): string {
  return [
    `machine: ${machine.cores} cores, ${machine.cpu}, ${machine.platform}`,
    `node ${machine.node}, chromium ${machine.chromium ?? 'not run'}`,
    `load average ${machine.loadAverage.join(' / ')} (1/5/15 min) at start, ${machine.date}`,
    `first touch of new memory: ${machine.firstTouchMicrosPerPage.toFixed(2)} µs per 4 KiB page`,
  ].join('\n');
}

const PAGE_BYTES = 4096;
const TOUCHED_BYTES = 64 * 1024 * 1024;

/**
 * The cost of the first write to each page of a fresh 64 MiB buffer (the kernel maps a zeroed
 * page on that first write), per page, median of three. Issue 17's profiles found it behind
 * several figures: a 13.5M-character prompt is 27 MB of new memory, ~100 ms at 14.5 µs a page.
 */
function measureFirstTouch(): number {
  const perPage: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const bytes = new Uint8Array(TOUCHED_BYTES);
    for (let offset = 0; offset < bytes.length; offset += PAGE_BYTES) bytes[offset] = 1;
    perPage.push(((performance.now() - started) * 1000) / (TOUCHED_BYTES / PAGE_BYTES));
  }
  return median(perPage);
}
