import { readdirSync, readFileSync } from 'node:fs';
import { peakRssMiB } from './process.js';

/** Sum of the peak resident memory (VmHWM) of every live process in a process group, in MiB. */
export function processGroupPeakRssMiB(pgid: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the parenthesised command: state ppid pgrp ...
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) total += peakRssMiB(Number(entry)) ?? 0;
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}
