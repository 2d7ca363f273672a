// Approved APIKeys for a fault scenario, and which of their enforcement Secrets exist.
import { randomBytes } from 'node:crypto';
import { coreTypes } from '@keyward/kernel';
import { ContentType } from '@keyward/runtime/io';
import { API_KEY_DATA_KEY, CONDITION_APPROVED, apiKeyOf, apiKeyType, managedLabels } from '@keyward/apikey-enforcement';
import type { FaultEnvironment } from './environment.js';

/** Objects set up at once: enough to be quick, few enough not to flood the API server. */
const BATCH = 20;

/** Each APIKey with its own consumer Secret, approved through the status subresource as the devportal does. */
export async function createApprovedApiKeys(fault: FaultEnvironment, namespace: string, names: readonly string[]): Promise<void> {
  for (let i = 0; i < names.length; i += BATCH) {
    await Promise.all(names.slice(i, i + BATCH).map(async (name) => {
      const key = `key-${randomBytes(16).toString('hex')}`;
      const ref = { type: apiKeyType, namespace, name };
      await fault.kube.create({ type: coreTypes.secret, namespace, name }, { metadata: { name }, stringData: { [API_KEY_DATA_KEY]: key } });
      await fault.kube.create(ref, {
        apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name, namespace },
        spec: { apiProductRef: { name: 'weather' }, secretRef: { name }, planTier: 'gold', useCase: 'faults', requestedBy: { userId: name, email: 'faults@example.com' } },
      });
      await fault.kube.patch(ref, {
        status: { conditions: [{ type: CONDITION_APPROVED, status: 'True', reason: 'Approved', message: 'by the fault scenario', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
      }, ContentType.mergePatch, 'status');
    }));
  }
}

/** The APIKeys ("namespace/name") whose enforcement Secret exists in `enforcementNamespace`. */
export async function enforcedApiKeys(fault: FaultEnvironment, enforcementNamespace: string): Promise<Set<string>> {
  const secrets = (await fault.kube.listAll(coreTypes.secret, { namespace: enforcementNamespace, labels: managedLabels })).items;
  return new Set(secrets.map(apiKeyOf).filter((owner) => owner !== undefined));
}
