import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports utime/stime in clock ticks; 100 per second on every mainstream kernel config. */
const CLOCK_TICKS_PER_SECOND = 100;

interface ProcessStat {
  pid: number;
  parentPid: number;
  command: string;
  cpuMs: number;
}

function readStat(pid: string): ProcessStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command sits in parentheses and may itself contain spaces or parentheses.
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return {
      pid: Number(pid),
      parentPid: Number(fields[1]),
      command: text.slice(open + 1, close),
      cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND,
    };
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, ms) used so far by the browser processes this bench started: every
 * descendant of this Node process except Node and esbuild helpers. On a loaded machine it tells
 * the browser's own work from the time it waited for a core. Null where /proc is unavailable.
 */
export function browserCpuMs(): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const stats = entries.map(readStat).filter((stat): stat is ProcessStat => stat !== null);
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) children.set(stat.parentPid, [...(children.get(stat.parentPid) ?? []), stat]);
  let total = 0;
  const pending = [...(children.get(process.pid) ?? [])];
  while (pending.length > 0) {
    const stat = pending.pop()!;
    if (!/^(node|esbuild)$/.test(stat.command)) total += stat.cpuMs;
    pending.push(...(children.get(stat.pid) ?? []));
  }
  return total;
}

/** CPU time the browser used while `work` ran, next to its result. */
export async function withBrowserCpu<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number | null }> {
  const before = browserCpuMs();
  const value = await work();
  const after = browserCpuMs();
  return { value, cpuMs: before === null || after === null ? null : after - before };
}
