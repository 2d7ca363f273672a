import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ResourceType } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { adminKubeConfig, createTestNamespace, kubeConfigFor, serviceAccountIdentity, waitFor } from '@keyward/test-env';
import { RBAC_COMPONENTS, RBAC_RULES, permissionsOf, type Permission, type RbacComponent, type RbacRule } from '../src/rbac.js';
import { OPERATOR_NAMESPACE, baseManifests, type Manifest } from './deploy.js';
import { DEPLOYED_NAMESPACES, MANIFEST_TYPES, deployedIdentity, inApplyOrder, mayDo } from './deployed-identity.js';

/** Where deploy/base puts the apikey controller's enforcement Role: the default enforcement namespace. */
const ENFORCEMENT_NAMESPACE = DEPLOYED_NAMESPACES.enforcement;


function refOf(object: Manifest): { type: ResourceType; namespace: string | undefined; name: string } {
  const type = MANIFEST_TYPES[object.kind];
  if (type === undefined) throw new Error(`no resource type for ${object.kind}: add it to TYPES`);
  return { type, namespace: object.metadata.namespace, name: object.metadata.name };
}

/** The objects of deploy/base in dependency order. */
function baseObjects(): Manifest[] {
  return inApplyOrder(baseManifests());
}

/** One question to the authorizer: may the caller do `verb` on the resource in `namespace` ('' = all namespaces)? */
interface Probe {
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource?: string | undefined;
  readonly verb: string;
  readonly namespace: string;
}

const describeProbe = (probe: Probe): string =>
  `${probe.verb} ${probe.apiGroup === '' ? '' : `${probe.apiGroup}/`}${probe.resource}${probe.subresource === undefined ? '' : `/${probe.subresource}`} in ${probe.namespace === '' ? 'all namespaces' : probe.namespace}`;

/** Where a permission is granted in deploy/base, the install of the defaults: undefined for every namespace. */
function namespaceOf(permission: Permission): string | undefined {
  if (permission.scope === 'watched' || permission.scope === 'cluster') return undefined;
  return permission.scope.namespace === 'operator' ? OPERATOR_NAMESPACE : permission.scope.of({});
}

/** A component's rules; every component of RBAC_COMPONENTS has some. */
function rulesOf(component: RbacComponent): readonly RbacRule[] {
  const rules = RBAC_RULES[component];
  if (rules === undefined) throw new Error(`no RBAC rules for ${component}`);
  return rules;
}

/** What rbac.ts says about a probe for an identity bound to `components`. */
function declaredAllowed(components: readonly RbacComponent[], probe: Probe): boolean {
  return components.some((component) =>
    permissionsOf(rulesOf(component)).some(
      (permission) =>
        permission.apiGroup === probe.apiGroup &&
        permission.resource === probe.resource &&
        permission.subresource === probe.subresource &&
        permission.verb === probe.verb &&
        (namespaceOf(permission) === undefined || namespaceOf(permission) === probe.namespace),
    ),
  );
}

const allowed = (client: KubeClient, probe: Probe): Promise<boolean> =>
  mayDo(client, { group: probe.apiGroup, resource: probe.resource, subresource: probe.subresource, verb: probe.verb, namespace: probe.namespace });

/** A client that authenticates as a ServiceAccount, with a short-lived token from the TokenRequest API. */
async function clientAs(namespace: string, name: string): Promise<KubeClient> {
  return new KubeClient(kubeConfigFor({ kubeconfig: (await serviceAccountIdentity(namespace, name)).kubeconfig }));
}

/** Every declared permission where it is granted, elsewhere and cluster-wide, and things nobody may do. */
function probes(): Probe[] {
  const declared = RBAC_COMPONENTS.flatMap((component) => permissionsOf(rulesOf(component)));
  const around = declared.flatMap((permission) =>
    [...new Set([namespaceOf(permission) ?? 'team-a', 'default', ''])].map((namespace) => ({ ...permission, namespace })),
  );
  const forbidden: Probe[] = [
    { apiGroup: '', resource: 'configmaps', verb: 'update', namespace: 'default' },
    { apiGroup: '', resource: 'pods', verb: 'create', namespace: OPERATOR_NAMESPACE },
    { apiGroup: '', resource: 'pods', verb: 'create', namespace: 'default' },
    { apiGroup: '', resource: 'pods', subresource: 'log', verb: 'get', namespace: 'default' },
    { apiGroup: '', resource: 'pods', subresource: 'exec', verb: 'create', namespace: 'default' },
    { apiGroup: 'keystone.openstack.c5c3.io', resource: 'keystones', verb: 'patch', namespace: 'default' },
    { apiGroup: 'keystone.openstack.c5c3.io', resource: 'keystones', verb: 'delete', namespace: 'default' },
    { apiGroup: 'apps', resource: 'deployments', verb: 'delete', namespace: 'default' },
    { apiGroup: 'batch', resource: 'jobs', verb: 'patch', namespace: 'default' },
    { apiGroup: '', resource: 'namespaces', verb: 'create', namespace: '' },
    { apiGroup: '', resource: 'secrets', verb: 'update', namespace: ENFORCEMENT_NAMESPACE },
    { apiGroup: 'devportal.kuadrant.io', resource: 'apikeys', verb: 'create', namespace: 'default' },
    { apiGroup: 'devportal.kuadrant.io', resource: 'apikeys', verb: 'delete', namespace: 'default' },
    { apiGroup: 'keystone.openstack.org', resource: 'keystoneapplicationcredentials', verb: 'delete', namespace: 'default' },
    { apiGroup: 'keystone.openstack.org', resource: 'keystoneapis', verb: 'update', namespace: 'default' },
    { apiGroup: 'coordination.k8s.io', resource: 'leases', verb: 'delete', namespace: OPERATOR_NAMESPACE },
    { apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles', verb: 'escalate', namespace: '' },
    { apiGroup: 'events.k8s.io', resource: 'events', verb: 'create', namespace: 'default' },
    // Verbs the code never uses, so none is granted.
    { apiGroup: 'keystone.openstack.org', resource: 'keystoneapplicationcredentials', verb: 'update', namespace: 'default' },
    { apiGroup: 'keystone.openstack.org', resource: 'keystoneapplicationcredentials', subresource: 'status', verb: 'get', namespace: 'default' },
    { apiGroup: 'keystone.openstack.org', resource: 'keystoneapplicationcredentials', subresource: 'status', verb: 'update', namespace: 'default' },
    { apiGroup: 'devportal.kuadrant.io', resource: 'apikeys', subresource: 'status', verb: 'update', namespace: 'default' },
    { apiGroup: '', resource: 'secrets', verb: 'patch', namespace: ENFORCEMENT_NAMESPACE },
    { apiGroup: 'events.k8s.io', resource: 'events', verb: 'patch', namespace: 'default' },
  ];
  const unique = new Map([...around, ...forbidden].map((probe) => [describeProbe(probe), probe]));
  return [...unique.values()];
}

interface Identity {
  readonly name: string;
  readonly components: readonly RbacComponent[];
}

describe('deploy/base on a real API server', () => {
  const admin = new KubeClient(adminKubeConfig());
  const objects = baseObjects();
  let testNamespace = '';
  /** Removes the bindings made for the per-controller identities. */
  const removals: (() => Promise<void>)[] = [];
  const clients: KubeClient[] = [];
  const identities: Identity[] = [
    { name: 'keyward', components: ['runtime', 'keystone-appcred', 'apikey-enforcement', 'keycloak-realm', 'keycloak-client', 'keystone-service'] },
    { name: 'appcred-only', components: ['runtime', 'keystone-appcred'] },
    { name: 'apikey-only', components: ['runtime', 'apikey-enforcement'] },
    { name: 'realm-only', components: ['runtime', 'keycloak-realm'] },
    { name: 'client-only', components: ['runtime', 'keycloak-client'] },
    { name: 'service-only', components: ['runtime', 'keystone-service'] },
  ];

  beforeAll(async () => {
    // The enforcement Role lives in kuadrant, which Kuadrant (not the base) creates.
    const kuadrant: Manifest = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ENFORCEMENT_NAMESPACE } };
    await admin.apply(refOf(kuadrant), kuadrant);
    testNamespace = await createTestNamespace('operator-rbac');
  });

  afterAll(async () => {
    for (const remove of removals) await remove();
    // The Deployment's pods would stay Pending (nothing schedules them here); everything else is inert.
    const deployment = objects.find((object) => object.kind === 'Deployment');
    if (deployment !== undefined) await admin.delete(refOf(deployment));
    admin.close();
    for (const client of clients) client.close();
  });

  it('accepts every object by server-side apply, in dependency order', async () => {
    const applied: string[] = [];
    for (const object of objects) {
      const result = await admin.apply(refOf(object), object);
      applied.push(`${result.kind} ${result.metadata.name}`);
    }
    expect(applied).toEqual(objects.map((object) => `${object.kind} ${object.metadata.name}`));
  });

  it('runs a pod template that meets the restricted Pod Security Standard the namespace enforces', async () => {
    const deployment = objects.find((object) => object.kind === 'Deployment') as unknown as { spec: { template: { metadata: object; spec: object } } };
    // A server-side dry run goes through admission (PodSecurity included) without creating the pod.
    const pod = await admin.raw<{ metadata: { namespace: string } }>({
      method: 'POST',
      path: `/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods`,
      query: { dryRun: 'All' },
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { ...deployment.spec.template.metadata, name: 'keyward-dry-run' }, spec: deployment.spec.template.spec },
      what: 'dry-run create Pod',
      verb: 'create',
      resource: 'pods',
    });
    expect(pod.metadata.namespace).toBe(OPERATOR_NAMESPACE);
  });

  it('grants each identity exactly what rbac.ts declares for its controllers', async () => {
    for (const identity of identities.slice(1)) {
      const bound = await deployedIdentity(admin, { namespace: testNamespace, name: identity.name, components: identity.components, namespaces: DEPLOYED_NAMESPACES });
      removals.push(bound.remove);
    }
    const reviewers = await Promise.all(
      identities.map(async (identity) => {
        const client = await clientAs(identity.name === 'keyward' ? OPERATOR_NAMESPACE : testNamespace, identity.name);
        clients.push(client);
        return { identity, client };
      }),
    );

    const all = probes();
    const expected = Object.fromEntries(identities.flatMap((identity) => all.map((probe) => [`${identity.name}: ${describeProbe(probe)}`, declaredAllowed(identity.components, probe)])));
    const review = async (): Promise<Record<string, boolean>> =>
      Object.fromEntries(
        await Promise.all(
          reviewers.flatMap(({ identity, client }) => all.map(async (probe) => [`${identity.name}: ${describeProbe(probe)}`, await allowed(client, probe)] as const)),
        ),
      );
    // The authorizer learns about new bindings from its informers, a moment after they are written.
    const actual = await waitFor(async () => {
      const answers = await review();
      return JSON.stringify(answers) === JSON.stringify(expected) ? answers : undefined;
    }, { what: 'the authorizer to see the bindings', timeoutMs: 10_000, intervalMs: 500 }).catch(review);
    expect(actual).toEqual(expected);

    // The matrix spelled out where it matters, so the expectation does not rest on declaredAllowed alone.
    expect({
      'apikey-only may create Secrets in kuadrant': actual[`apikey-only: create secrets in ${ENFORCEMENT_NAMESPACE}`],
      'apikey-only may create Secrets in default': actual['apikey-only: create secrets in default'],
      'apikey-only may list Secrets everywhere': actual['apikey-only: list secrets in all namespaces'],
      'appcred-only may create Secrets in default': actual['appcred-only: create secrets in default'],
      'appcred-only may patch KeystoneApplicationCredential status': actual['appcred-only: patch keystone.openstack.org/keystoneapplicationcredentials/status in default'],
      'appcred-only may update KeystoneApplicationCredential status': actual['appcred-only: update keystone.openstack.org/keystoneapplicationcredentials/status in default'],
      'appcred-only may get KeystoneApplicationCredential status': actual['appcred-only: get keystone.openstack.org/keystoneapplicationcredentials/status in default'],
      'appcred-only may update KeystoneApplicationCredentials': actual['appcred-only: update keystone.openstack.org/keystoneapplicationcredentials in default'],
      'apikey-only may update APIKey status': actual['apikey-only: update devportal.kuadrant.io/apikeys/status in default'],
      'apikey-only may patch Secrets in kuadrant': actual[`apikey-only: patch secrets in ${ENFORCEMENT_NAMESPACE}`],
      'keyward may patch events.k8s.io Events': actual['keyward: patch events.k8s.io/events in default'],
      'appcred-only may read APIKeys': actual['appcred-only: get devportal.kuadrant.io/apikeys in default'],
      'keyward may create APIKeys': actual['keyward: create devportal.kuadrant.io/apikeys in default'],
      'keyward may update ConfigMaps': actual['keyward: update configmaps in default'],
      'appcred-only may delete ConfigMaps': actual['appcred-only: delete configmaps in default'],
      'service-only may delete ConfigMaps': actual['service-only: delete configmaps in default'],
      'service-only may create Jobs': actual['service-only: create batch/jobs in default'],
      'service-only may patch Jobs': actual['service-only: patch batch/jobs in default'],
      'service-only may list ReplicaSets everywhere': actual['service-only: list apps/replicasets in all namespaces'],
      'service-only may create Pods': actual['service-only: create pods in default'],
      'service-only may read Pod logs': actual['service-only: get pods/log in default'],
      'service-only may patch Keystones': actual['service-only: patch keystone.openstack.c5c3.io/keystones in default'],
      'service-only may patch Keystone status': actual['service-only: patch keystone.openstack.c5c3.io/keystones/status in default'],
      'keyward may create Leases in its namespace': actual[`keyward: create coordination.k8s.io/leases in ${OPERATOR_NAMESPACE}`],
      'keyward may create Leases in default': actual['keyward: create coordination.k8s.io/leases in default'],
      'keyward may create core Events anywhere': actual['keyward: create events in all namespaces'],
      'keyward may create events.k8s.io Events': actual['keyward: create events.k8s.io/events in default'],
    }).toEqual({
      'apikey-only may create Secrets in kuadrant': true,
      'apikey-only may create Secrets in default': false,
      'apikey-only may list Secrets everywhere': true,
      'appcred-only may create Secrets in default': true,
      'appcred-only may patch KeystoneApplicationCredential status': true,
      'appcred-only may update KeystoneApplicationCredential status': false,
      'appcred-only may get KeystoneApplicationCredential status': false,
      'appcred-only may update KeystoneApplicationCredentials': false,
      'apikey-only may update APIKey status': false,
      'apikey-only may patch Secrets in kuadrant': false,
      'keyward may patch events.k8s.io Events': false,
      'appcred-only may read APIKeys': false,
      'keyward may create APIKeys': false,
      'keyward may update ConfigMaps': false,
      'appcred-only may delete ConfigMaps': false,
      'service-only may delete ConfigMaps': true,
      'service-only may create Jobs': true,
      'service-only may patch Jobs': false,
      'service-only may list ReplicaSets everywhere': true,
      'service-only may create Pods': false,
      'service-only may read Pod logs': false,
      'service-only may patch Keystones': false,
      'service-only may patch Keystone status': true,
      'keyward may create Leases in its namespace': true,
      'keyward may create Leases in default': false,
      'keyward may create core Events anywhere': true,
      'keyward may create events.k8s.io Events': false,
    });
  });
});
