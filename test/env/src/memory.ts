import { readdirSync, readFileSync } from 'node:fs';
import { peakRssMiB } from './process.js';

/** The live processes of one process group (each component of the environment runs in its own). */
export function processesInGroup(pgid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the parenthesised command: state ppid pgrp ...
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Sum of the peak resident memory (VmHWM) of every live process in a process group, in MiB. */
export function processGroupPeakRssMiB(pgid: number): number {
  return processesInGroup(pgid).reduce((total, pid) => total + (peakRssMiB(pid) ?? 0), 0);
}
