// jest-exclusive: workspace build
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { coreTypes, findCondition, type Condition } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import { adminKubeConfig, createTestNamespace, freeLoopbackPort, holdForThisFile, httpCall, keystoneAdmin, rememberSecret, testEnvironment, waitFor } from '@keyward/test-env';
import { crdsYaml } from '../src/crds.js';
import { operatorVersion } from '../src/version.js';
import { asTheImageStarts } from './image-entrypoint.js';
import { startKeyward, stopKeyward } from './operator-process.js';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../../../scripts/bundle-operator.sh', import.meta.url));

/** The production bundle, built once into a folder outside the workspace and started as the image starts it. */
describe('scripts/bundle-operator.sh', () => {
  let scratch = '';
  let bundle = '';
  const keyward = (...args: string[]) => {
    const { command, args: commandArgs } = asTheImageStarts(bundle, args);
    return run(command, commandArgs, { cwd: scratch });
  };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'keyward-bundle-'));
    bundle = join(scratch, 'operator');
    const release = await holdForThisFile('workspace build');
    try {
      await run(SCRIPT, [bundle], { maxBuffer: 64 * 1024 * 1024 });
    } finally {
      release();
    }
  }, 600_000);

  afterAll(async () => {
    if (scratch !== '') await rm(scratch, { recursive: true, force: true });
  });

  it('runs `keyward version` without the workspace', async () => {
    expect((await keyward('version')).stdout).toBe(`keyward ${operatorVersion()}\n`);
  });

  it('runs `keyward crds` without the workspace, printing what the sources print', async () => {
    expect((await keyward('crds')).stdout).toBe(crdsYaml());
  });

  it('is one file with its source map and licences, and no node_modules', async () => {
    expect((await readdir(bundle)).sort()).toEqual(['dist', 'package.json']);
    expect((await readdir(join(bundle, 'dist'))).sort()).toEqual(['keyward.js', 'keyward.js.licenses.txt', 'keyward.js.map']);
  });

  it('runs the operator: ready, and a KeystoneApplicationCredential becomes Ready', async () => {
    const kube = new KubeClient(adminKubeConfig());
    const namespace = await createTestNamespace('bundle');
    const userName = `bundle-${randomBytes(3).toString('hex')}`;
    const password = rememberSecret(`pw-${randomBytes(12).toString('hex')}`);
    await (await keystoneAdmin()).ensureServiceUser({ userName, password });
    await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: password } });
    const healthPort = await freeLoopbackPort();
    const operator = startKeyward(['run',
      '--kubeconfig', testEnvironment().kubeconfig,
      '--namespaces', namespace,
      '--keystone-url', testEnvironment().keystone?.url ?? '',
      '--lease-namespace', namespace,
      '--metrics-bind-address', '0',
      '--health-bind-address', `127.0.0.1:${String(healthPort)}`,
      '--log-format', 'json',
    ], 'bundle-operator', (args) => asTheImageStarts(bundle, args));
    try {
      const alive = (): void => {
        if (operator.child.exitCode !== null) throw new Error(`the bundled operator exited: ${operator.output()}`);
      };
      await waitFor(async () => ((await httpCall(`http://127.0.0.1:${String(healthPort)}/readyz`)).status === 200 ? true : undefined), {
        what: 'the bundled operator to be ready', timeoutMs: 60_000, intervalMs: 300, abortIf: alive,
      });
      const ref = { type: appCredType, namespace, name: 'ac-bundle' };
      await kube.create(ref, {
        apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name: 'ac-bundle', namespace },
        spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
      });
      await waitFor(async () => {
        const conditions = ((await kube.get(ref))?.['status'] as { conditions?: Condition[] } | undefined)?.conditions;
        return findCondition(conditions, 'Ready')?.status === 'True' ? true : undefined;
      }, { what: 'ac-bundle to be Ready', timeoutMs: 90_000, intervalMs: 300, abortIf: alive });
    } finally {
      await stopKeyward(operator);
      kube.close();
    }
  });
});
