// A command run as a person runs it from a terminal, watched from outside: in a process group of its own (a
// terminal's foreground job, so Ctrl-C is SIGINT to the whole group) and with a TMPDIR of its own, so the
// environment folder it creates and every process it starts (they all inherit TMPDIR) can be found afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from '../../src/paths.js';

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export class CommandRun {
  /** Its stdout and stderr, line by line, in the order they arrived. */
  readonly lines: string[] = [];
  readonly exited: Promise<Exit>;
  #exit: Exit | undefined;
  readonly #changed = new Set<() => void>();

  private constructor(
    readonly tmp: string,
    private readonly child: ChildProcess,
  ) {
    for (const stream of [child.stdout, child.stderr]) {
      if (stream === null) continue;
      createInterface({ input: stream }).on('line', (line) => {
        this.lines.push(line);
        this.#notify();
      });
    }
    // 'close', not 'exit': by then every line it wrote has been read.
    this.exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        this.#exit = { code, signal };
        this.#notify();
        resolve(this.#exit);
      });
    });
  }

  /** Runs `command` from the repository root; the caller's KEYWARD_* settings that change where or whether an environment starts are left out. */
  static start(command: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): CommandRun {
    const tmp = mkdtempSync(join(tmpdir(), 'signal-test-'));
    // Like /tmp: MariaDB runs as the mysql user, which reaches the environment folder inside and writes temporary files here.
    chmodSync(tmp, 0o1777);
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !['KEYWARD_ENV_ATTACH', 'KEYWARD_KEEP_ENV', 'KEYWARD_ENV_DIR'].includes(name)),
    );
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...inherited, ...env, TMPDIR: tmp },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new CommandRun(tmp, child);
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('the command did not start');
    return this.child.pid;
  }

  /** The first line matching `pattern`, once it has been written; fails if the command ends without writing it. */
  async waitForLine(pattern: RegExp): Promise<string> {
    for (;;) {
      const found = this.lines.find((line) => pattern.test(line));
      if (found !== undefined) return found;
      if (this.#exit !== undefined) throw new Error(`ended (${JSON.stringify(this.#exit)}) without a line matching ${String(pattern)}:\n${this.output()}`);
      await new Promise<void>((resolve) => this.#changed.add(resolve));
    }
  }

  /** Ctrl-C: the terminal sends SIGINT to every process of its foreground job. */
  interrupt(): void {
    process.kill(-this.pid, 'SIGINT');
  }

  /** `kill PID`: SIGTERM to the command's own process only. */
  terminate(): void {
    process.kill(this.pid, 'SIGTERM');
  }

  output(): string {
    return this.lines.join('\n');
  }

  /** Environment folders it left in its TMPDIR. */
  foldersLeft(): string[] {
    return readdirSync(this.tmp).filter((name) => name.startsWith('keyward-'));
  }

  /**
   * Processes it started that still run. A process SIGKILLed just before the command exited may take a moment
   * to be reaped, so this looks again a few times before it reports what remains.
   */
  async processesLeft(): Promise<string[]> {
    let left = this.#processesNow();
    for (let look = 0; look < 20 && left.length > 0; look++) {
      await sleep(250);
      left = this.#processesNow();
    }
    return left;
  }

  /** The test's own clean-up, after its assertions: kills whatever the command left and removes its TMPDIR. */
  cleanUp(): void {
    if (this.#exit === undefined) this.#kill(this.pid);
    for (const line of this.#processesNow()) this.#kill(Number(line.split(' ')[0]));
    rmSync(this.tmp, { recursive: true, force: true });
  }

  /** Every process whose environment holds this run's TMPDIR (inherited from the command) or whose flags name it. */
  #processesNow(): string[] {
    const found: string[] = [];
    for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
      try {
        const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
        if (environment.includes(`TMPDIR=${this.tmp}`) || commandLine.includes(this.tmp)) found.push(`${pid} ${commandLine}`);
      } catch {
        // It ended while we looked.
      }
    }
    return found;
  }

  #kill(pid: number): void {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  #notify(): void {
    const waiting = [...this.#changed];
    this.#changed.clear();
    for (const resolve of waiting) resolve();
  }
}
