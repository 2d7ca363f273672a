// jest-cost: 130 s
// Every way out of the demo, `pnpm devenv` and the jest integration harness leaves nothing behind: Ctrl-C or
// SIGTERM at any moment of start-up and after it, and a component that fails to start. "Nothing" means no
// process the command started (they all inherit its TMPDIR) and no environment folder in its TMPDIR.
// Signals are sent once a line shows the moment was reached (a component ready, the environment running).
import { afterEach, describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import { repoRoot } from '../src/paths.js';
import { CommandRun } from './support/command-run.js';
import { INJECTED_FAILURE, cacheWithFailingApiServer } from './support/failing-cache.js';

/** Start-ups with Keystone and Keycloak on a loaded 2-core machine; a guard against hanging, not a bound. */
const FULL_START_UP = 900_000;

/** What scripts/demo runs once setup is done. */
const DEMO = ['--import', 'tsx', '--conditions=@keyward/source', 'scripts/demo.ts'];
/** What `pnpm devenv` runs, without pnpm in between. */
const devenv = (command: string): string[] => ['--import', 'tsx', 'test/env/src/cli.ts', command];
/** A jest run of one trivial test with the integration project's global setup and teardown. */
const HARNESS = [
  '--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '--config',
  JSON.stringify({
    rootDir: repoRoot,
    testMatch: ['<rootDir>/test/env/test/fixtures/harness/probe.mjs'],
    transform: {},
    globalSetup: '<rootDir>/test/env/jest-global-setup.mjs',
    globalTeardown: '<rootDir>/test/env/jest-global-teardown.mjs',
  }),
];

const runs: CommandRun[] = [];
const caches: string[] = [];

function start(command: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): CommandRun {
  const run = CommandRun.start(command, args, env);
  runs.push(run);
  return run;
}

function failingCache(): string {
  const cache = cacheWithFailingApiServer();
  caches.push(cache);
  return cache;
}

afterEach(() => {
  for (const run of runs.splice(0)) run.cleanUp();
  for (const cache of caches.splice(0)) rmSync(cache, { recursive: true, force: true });
});

async function expectNothingLeft(run: CommandRun): Promise<void> {
  expect(await run.processesLeft()).toEqual([]);
  expect(run.foldersLeft()).toEqual([]);
}

function indexOfLine(run: CommandRun, pattern: RegExp): number {
  return run.lines.findIndex((line) => pattern.test(line));
}

describe('the demo', () => {
  it('stops everything on Ctrl-C right after the first component started', async () => {
    const run = start(process.execPath, DEMO);
    await run.waitForLine(/etcd ready/);
    run.interrupt();
    expect(await run.exited).toEqual({ code: 130, signal: null });
    await expectNothingLeft(run);
  }, FULL_START_UP);

  it('stops everything on SIGTERM half-way through start-up', async () => {
    const run = start(process.execPath, DEMO);
    // Keystone's database set-up runs now, while the control plane starts alongside.
    await run.waitForLine(/mariadb ready/);
    run.terminate();
    expect(await run.exited).toEqual({ code: 143, signal: null });
    await expectNothingLeft(run);
  }, FULL_START_UP);

  it('stops the operator, then the environment, on Ctrl-C once it runs', async () => {
    const run = start(process.execPath, DEMO);
    await run.waitForLine(/keyward operator started/);
    run.interrupt();
    expect(await run.exited).toEqual({ code: 130, signal: null });
    await expectNothingLeft(run);
    expect(indexOfLine(run, /operator stopped/)).toBeGreaterThan(indexOfLine(run, /keyward operator started/));
    expect(indexOfLine(run, /environment stopped/)).toBeGreaterThan(indexOfLine(run, /operator stopped/));
  }, FULL_START_UP);

  it('stops what had started when a component fails to start, and says which one failed', async () => {
    const run = start(process.execPath, DEMO, { KEYWARD_CACHE: failingCache() });
    expect(await run.exited).toEqual({ code: 1, signal: null });
    await expectNothingLeft(run);
    expect(indexOfLine(run, /etcd ready/)).toBeGreaterThanOrEqual(0);
    expect(run.output()).toMatch(/kube-apiserver: exited unexpectedly \(exit code 3\)/);
    expect(run.output()).toContain(INJECTED_FAILURE);
  }, FULL_START_UP);
});

describe('pnpm devenv', () => {
  it('up stops everything on Ctrl-C half-way through start-up', async () => {
    const run = start('pnpm', ['devenv', 'up']);
    await run.waitForLine(/kube-apiserver ready/);
    run.interrupt();
    // pnpm waits for its script and then ends as it sees fit (by the signal itself, here): the script's own
    // exit status is what the other tests check.
    await run.exited;
    await expectNothingLeft(run);
    // One Ctrl-C is one signal to the environment, which stops in order: no launcher in between sends another.
    expect(indexOfLine(run, /stopped everything started so far and removed the folder/))
      .toBeGreaterThan(indexOfLine(run, /SIGINT: stopping the environment/));
    expect(run.output()).not.toMatch(/killed everything at once/);
  }, FULL_START_UP);

  it('up stops everything on SIGTERM once the environment runs', async () => {
    const run = start(process.execPath, devenv('up'));
    await run.waitForLine(/environment running/);
    run.terminate();
    expect(await run.exited).toEqual({ code: 143, signal: null });
    await expectNothingLeft(run);
  }, FULL_START_UP);

  it('start (in the background) stops what it started on SIGTERM during start-up', async () => {
    const run = start(process.execPath, devenv('start'));
    await run.waitForLine(/etcd ready/);
    run.terminate();
    expect(await run.exited).toEqual({ code: 143, signal: null });
    await expectNothingLeft(run);
  }, FULL_START_UP);
});

describe('the jest integration harness', () => {
  it('leaves nothing behind when its global setup is interrupted', async () => {
    const run = start(process.execPath, HARNESS);
    await run.waitForLine(/\[env\] etcd ready/);
    run.interrupt();
    expect(await run.exited).toEqual({ code: 130, signal: null });
    await expectNothingLeft(run);
  }, FULL_START_UP);

  it('leaves nothing behind when its global setup fails part-way, and says which component failed', async () => {
    const run = start(process.execPath, HARNESS, { KEYWARD_CACHE: failingCache() });
    expect((await run.exited).code).not.toBe(0);
    await expectNothingLeft(run);
    expect(run.output()).toMatch(/kube-apiserver: exited unexpectedly \(exit code 3\)/);
  }, FULL_START_UP);
});
