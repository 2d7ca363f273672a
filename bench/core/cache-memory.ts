// Memory of 10,000 cached Secrets with and without managedFields stripping (run with --expose-gc).
// Target: stripping saves at least 30% of the cache's heap for objects written by a few field managers.
import { ObjectCache, cachedForm } from '@keyward/runtime/controller';
import { coreTypes } from '@keyward/kernel';

const COUNT = 10_000;

function serverSecret(i: number): { apiVersion: string; kind: string; metadata: { name: string } & Record<string, unknown>; data: Record<string, string> } {
  const managed = (manager: string) => ({
    manager, operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1',
    fieldsV1: { 'f:data': { '.': {}, 'f:AC_ID': {}, 'f:AC_SECRET': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:application-credentials': {}, 'f:application-credential-service': {} }, 'f:finalizers': { '.': {}, 'v:"openstack.org/ac-secret-protection"': {} } }, 'f:type': {} },
  });
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `ac-service-${String(i)}-secret`, namespace: 'openstack', uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i), creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { 'application-credentials': 'true', 'application-credential-service': `service-${String(i)}` },
      finalizers: ['openstack.org/ac-secret-protection'],
      managedFields: [managed('keyward'), managed('kubectl-client-side-apply'), managed('openstack-operator')],
    },
    data: { AC_ID: Buffer.from(`id-${String(i)}`).toString('base64'), AC_SECRET: Buffer.from('x'.repeat(86)).toString('base64') },
  };
}

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

function measure(strip: boolean): number {
  const before = heapUsed();
  const cache = new ObjectCache();
  const items = Array.from({ length: COUNT }, (_, i) => {
    const object = serverSecret(i);
    return strip ? cachedForm(coreTypes.secret, object) : object;
  });
  cache.replace(items);
  const after = heapUsed();
  if (cache.keys().length !== COUNT) throw new Error('cache incomplete');
  return after - before;
}

if ((globalThis as { gc?: () => void }).gc === undefined) throw new Error('run with node --expose-gc');
const withManagedFields = measure(false);
const stripped = measure(true);
console.log(JSON.stringify({
  benchmark: 'cache-memory',
  secrets: COUNT,
  withManagedFieldsMiB: Number((withManagedFields / 2 ** 20).toFixed(1)),
  strippedMiB: Number((stripped / 2 ** 20).toFixed(1)),
  savedPercent: Math.round((1 - stripped / withManagedFields) * 100),
  targets: { savedPercent: 30 },
}, null, 2));
