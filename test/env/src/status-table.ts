import type { EnvironmentInfo } from './environment.js';
import { processGroupPeakRssMiB } from './memory.js';
import { isAlive } from './process.js';

/** One line per component: whether it runs, its pid and its peak memory so far. */
export function statusTable(info: EnvironmentInfo, startedAtMs: number): string {
  const uptime = Math.round((Date.now() - startedAtMs) / 1000);
  const header = `${'COMPONENT'.padEnd(26)}${'STATUS'.padEnd(10)}${'PID'.padEnd(9)}PEAK MEMORY`;
  const rows = info.components.map((c) => {
    const alive = isAlive(c.pid);
    const memory = alive ? `${String(processGroupPeakRssMiB(c.pid))} MiB` : '-';
    return `${c.component.padEnd(26)}${(alive ? 'running' : 'exited').padEnd(10)}${String(c.pid).padEnd(9)}${memory}`;
  });
  return [`up ${String(uptime)}s`, header, ...rows].join('\n');
}
