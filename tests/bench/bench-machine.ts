import { arch, cpus, loadavg, platform, release } from 'node:os';
import type { MachineInfo } from './bench-result.ts';

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
    date: new Date().toISOString(),
  };
}

export function formatMachine(machine: MachineInfo): string {
  return [
    `machine: ${machine.cores} cores, ${machine.cpu}, ${machine.platform}`,
    `node ${machine.node}, chromium ${machine.chromium ?? 'not run'}`,
    `load average ${machine.loadAverage.join(' / ')} (1/5/15 min) at start, ${machine.date}`,
  ].join('\n');
}
