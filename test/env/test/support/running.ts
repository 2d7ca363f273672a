import { readFileSync } from 'node:fs';

/** Whether a process exists and has not ended (a zombie, waiting to be reaped, has ended). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
