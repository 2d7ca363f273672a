import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from './process.js';
import { waitFor } from './wait.js';

/**
 * Test files run side by side in several jest workers against one environment. A few need a machine-wide
 * resource for their whole run (the workload tier, the workspace's build output): they hold it by name, and
 * a second file asking for the same name waits until the first lets go. The hold is a folder (mkdir is
 * atomic) in `dir` naming its holder's pid, so a holder that died is taken over rather than waited for.
 */
export async function holdExclusive(dir: string, name: string, timeoutMs: number): Promise<() => void> {
  const lock = join(dir, 'exclusive', name);
  mkdirSync(join(dir, 'exclusive'), { recursive: true });
  await waitFor(
    () => {
      try {
        mkdirSync(lock);
      } catch {
        const holder = Number(readFileSync(join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }));
        if (holder > 0 && !isAlive(holder)) rmSync(lock, { recursive: true, force: true });
        return Promise.resolve(undefined);
      }
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return Promise.resolve(true);
    },
    { what: `the machine's ${name}, which another test file holds`, timeoutMs, intervalMs: 1_000 },
  );
  return () => {
    rmSync(lock, { recursive: true, force: true });
  };
}
