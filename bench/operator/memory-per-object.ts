// What each kind of object costs the operator in memory, so a user can size it: the image's bundle started as
// the image starts it (every controller, all namespaces), measured after a forced full GC with nothing to do,
// then after each kind's objects in turn converged: 1,000 KeystoneApplicationCredentials, 1,000 approved
// APIKeys, 1,000 KeycloakClients in 10 realms (`--objects` for another count; the realms stay 10). Each
// figure is what that kind added, divided by its count: the objects, the Secrets they make and whatever the
// controllers keep per object, as the operator holds them once converged.
import { setTimeout as sleep } from 'node:timers/promises';
import { coreTypes } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import { managedLabels } from '@keyward/apikey-enforcement';
import { keycloakClientType } from '@keyward/keycloak';
import { approvedApiKeys } from '../apikey/setup.js';
import { isReady as credentialReady, namespaceWithCrs, serviceUser } from '../appcred/setup.js';
import { createClient, createRealm, isReady as keycloakReady, keycloakConfig } from '../keycloak/setup.js';
import { createNamespace, startBenchEnvironment } from '../support/environment.js';
import { OPERATOR_AS_RUN, SAMPLING, buildBundle, cpuSeconds, measure, startOperator, stopAll, withOperatorOutput, type Measurement, type Operator } from '../support/operator-process.js';
import { inBatches } from '../support/pool.js';
import { sizes } from '../support/sizes.js';
import { rounded, within } from '../support/timing.js';
import { whenCount, type Arrival } from '../support/watch.js';

const { objects: OBJECTS } = sizes({ objects: 1_000 });
const REALMS = 10;
const ENFORCEMENT_NAMESPACE = 'bench-enforcement';
/** After the last object converged, before measuring: the status writes and events that follow are over. */
const SETTLE_MS = 15_000;
/** Keystone and Keycloak take up to about a second per object at the operator's defaults on a busy machine. */
const CONVERGE_TIMEOUT_MS = Math.max(10 * 60_000, OBJECTS * 1_000);
const KIB = 1024;

interface Kind {
  readonly name: string;
  /** Creates the kind's objects and resolves once they have all converged. */
  converge(kube: KubeClient): Promise<void>;
}

/** Creates what `create` makes, then waits for `arrival` (started before, so no event is missed). */
async function convergeAll(arrival: Arrival, create: () => Promise<void>, what: string): Promise<void> {
  try {
    await create();
    await within(arrival.reached, CONVERGE_TIMEOUT_MS, what);
  } finally {
    await arrival.stop();
  }
}

function kinds(user: Awaited<ReturnType<typeof serviceUser>>['user']): readonly Kind[] {
  return [
    {
      name: 'KeystoneApplicationCredential',
      converge: async (kube) => {
        const ready = await whenCount(kube, { type: appCredType, namespace: 'bench-appcred' }, OBJECTS, credentialReady);
        await convergeAll(ready, () => namespaceWithCrs(kube, 'bench-appcred', user, OBJECTS), `${String(OBJECTS)} credentials to be Ready`);
      },
    },
    {
      name: 'APIKey',
      converge: async (kube) => {
        const made = await whenCount(kube, { type: coreTypes.secret, namespace: ENFORCEMENT_NAMESPACE, labels: managedLabels }, OBJECTS, () => true);
        await convergeAll(made, () => approvedApiKeys(kube, 'bench-apikeys', OBJECTS), `${String(OBJECTS)} enforcement Secrets`);
      },
    },
    {
      name: 'KeycloakClient',
      converge: async (kube) => {
        const namespaces = Array.from({ length: REALMS }, (_, i) => `bench-clients-${String(i + 1).padStart(2, '0')}`);
        const perRealm = Math.ceil(OBJECTS / REALMS);
        const watches = await Promise.all(namespaces.map((namespace, i) => whenCount(kube, { type: keycloakClientType, namespace }, Math.min(perRealm, OBJECTS - i * perRealm), keycloakReady)));
        const all = { reached: Promise.all(watches.map((watch) => watch.reached)).then(() => undefined), stop: async () => { await Promise.all(watches.map((watch) => watch.stop())); } };
        await convergeAll(all, async () => {
          await Promise.all(namespaces.map(async (namespace, i) => {
            await createNamespace(kube, namespace);
            await createRealm(kube, namespace, `realm-${namespace}`, [namespace]);
            await inBatches(Math.min(perRealm, OBJECTS - i * perRealm), 25, (j) => createClient(kube, namespace, `app-${String(j + 1)}`, { namespace, name: `realm-${namespace}` }));
          }));
        }, `${String(OBJECTS)} clients to be Ready`);
      },
    },
  ];
}

/** What a kind added between two measurements, per object, in KiB. */
function perObject(before: Measurement, after: Measurement) {
  const kib = (mib: number): number => rounded((mib * KIB) / OBJECTS, 1);
  return {
    heapKiB: kib(after.afterGc.heapUsedMiB - before.afterGc.heapUsedMiB),
    rssKiB: kib(after.afterGc.rssMiB - before.afterGc.rssMiB),
  };
}

const bundle = buildBundle();
const environment = await startBenchEnvironment({ keystone: true, keycloak: true });
const kube = new KubeClient(environment.kubeConfig());
let operator: Operator | undefined;
try {
  const { keystoneUrl, user } = await serviceUser(environment.info);
  const keycloak = await keycloakConfig(kube, environment);
  await createNamespace(kube, ENFORCEMENT_NAMESPACE);
  const started = await startOperator(environment, bundle.path, [
    '--keystone-url', keystoneUrl,
    '--enforcement-namespace', ENFORCEMENT_NAMESPACE,
    '--keycloak-url', keycloak.keycloakUrl ?? '',
    '--keycloak-admin-secret', `${keycloak.keycloakAdminSecret?.namespace ?? ''}/${keycloak.keycloakAdminSecret?.name ?? ''}`,
    '--keycloak-operator-namespace', keycloak.keycloakOperatorNamespace,
  ]);
  operator = started;
  await sleep(SETTLE_MS);
  const idle = await measure(started);
  let before = idle;
  const byKind: Record<string, unknown> = {};
  for (const kind of kinds(user)) {
    const cpuBefore = cpuSeconds(started);
    await withOperatorOutput(started, kind.converge(kube));
    const convergeCpuSeconds = rounded(cpuSeconds(started) - cpuBefore, 2);
    await sleep(SETTLE_MS);
    const after = await measure(started);
    byKind[kind.name] = { ...perObject(before, after), convergeCpuSeconds, measured: after };
    before = after;
  }

  console.log(JSON.stringify({
    benchmark: 'operator-memory-per-object',
    objectsPerKind: OBJECTS,
    keycloakRealms: REALMS,
    operator: OPERATOR_AS_RUN,
    samples: `${SAMPLING}, ${String(SETTLE_MS / 1000)} s after each kind converged`,
    idle,
    // Per object, after a forced GC: what the kind's objects added to the heap and to the process's RSS.
    perObject: byKind,
    total: { heapUsedMiB: before.afterGc.heapUsedMiB, rssMiB: before.afterGc.rssMiB },
  }, null, 2));
} finally {
  await stopAll({ operator, kube, environment, bundle });
}
