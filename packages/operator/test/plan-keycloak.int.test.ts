// `keyward plan` shows what the Keycloak controllers would do in Keycloak, read from the real Keycloak, and
// does none of it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminKubeConfig, createTestNamespace, testEnvironment, testKeycloak } from '@keyward/test-env';
import { coreTypes } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { keycloakRealmType } from '@keyward/keycloak';
import { parsePlanConfig } from '../src/config.js';
import { planCommand } from '../src/plan.js';

let kube: KubeClient;
let namespace: string;
const realmName = `plan-${String(Date.now())}`;

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('plan-kc');
  const keycloak = testKeycloak();
  await kube.apply({ type: coreTypes.secret, namespace, name: 'keycloak-admin' }, {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: 'keycloak-admin', namespace },
    stringData: { 'client-id': keycloak.clientId, 'client-secret': keycloak.clientSecret },
  }, true);
  await kube.create({ type: keycloakRealmType, namespace, name: 'shop' }, {
    apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakRealm', metadata: { name: 'shop', namespace },
    spec: { realmName, displayName: 'Shop', realmRoles: [{ name: 'customer' }] },
  });
}, 120_000);

afterAll(() => {
  kube.close();
});

/** `keyward plan` of the test namespace's KeycloakRealms, with `extra` arguments: what it prints, and its exit status. */
async function planRealms(...extra: string[]): Promise<{ output: string; status: number }> {
  const parsed = parsePlanConfig([
    '--kubeconfig', testEnvironment().kubeconfig,
    '--namespace', namespace,
    '--controllers', 'keycloak-realm',
    '--keycloak-url', testKeycloak().url,
    '--keycloak-admin-secret', `${namespace}/keycloak-admin`,
    ...extra,
  ], {});
  if (!parsed.ok) throw new Error(parsed.error);
  let output = '';
  const status = await planCommand(parsed.config, (text) => { output += text; });
  return { output, status };
}

describe('keyward plan with the Keycloak controllers', () => {
  it('plans the creation of a realm that Keycloak does not have, and creates nothing', async () => {
    const { output, status } = await planRealms('--exit-code');
    expect(output).toContain(`KeycloakRealm ${namespace}/shop`);
    expect(output).toContain(`create realm ${realmName}`);
    expect(output).toContain(`create realm role customer in realm ${realmName}`);
    expect(status).toBe(2);
    const response = await fetch(`${testKeycloak().url}/realms/${realmName}`);
    expect(response.status).toBe(404);
  });

  it('says that the controller sends nothing for a generation Keycloak refused, until the object is edited', async () => {
    const ref = { type: keycloakRealmType, namespace, name: 'refused' };
    const created = await kube.create(ref, {
      apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakRealm', metadata: { name: 'refused', namespace },
      spec: { realmName: `${realmName}-refused`, displayName: 'Refused' },
    });
    const generation = created.metadata.generation ?? 0;
    await kube.patch(ref, { status: { refusedGeneration: generation } }, ContentType.mergePatch, 'status');
    const { output } = await planRealms();
    expect(output).toContain(`KeycloakRealm ${namespace}/refused\n  no changes\n  a failure recorded in status holds generation ${String(generation)}: the controller sends nothing for it again until the object is edited`);
    expect(output).not.toContain(`create realm ${realmName}-refused`);
  });
});
