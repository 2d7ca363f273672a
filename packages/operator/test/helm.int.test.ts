import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { ResourceType } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { adminKubeConfig, createTestNamespace, kubeConfigFor, serviceAccountIdentity, waitFor } from '@keyward/test-env';
import { parseRunConfig } from '../src/config.js';
import { RBAC_COMPONENTS, RBAC_RULES, permissionsOf, type RuleScope } from '../src/rbac.js';
import { OPERATOR_NAMESPACE, type Manifest } from './deploy.js';
import { MANIFEST_TYPES, inApplyOrder, mayDo } from './deployed-identity.js';
import { helmTemplate, operatorDeployment, operatorEnvironment, type Values } from './helm-chart.js';

function refOf(object: Manifest): { type: ResourceType; namespace: string | undefined; name: string } {
  const type = MANIFEST_TYPES[object.kind];
  if (type === undefined) throw new Error(`no resource type for ${object.kind}: add it to TYPES`);
  return { type, namespace: type.namespaced ? object.metadata.namespace : undefined, name: object.metadata.name };
}

/** The API path of an object, for calls KubeClient has no method for. */
function pathOf(object: Manifest): string {
  const { type, namespace, name } = refOf(object);
  const base = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  return `${base}${namespace === undefined ? '' : `/namespaces/${namespace}`}/${type.plural}/${name}`;
}

/** One question to the authorizer: may the caller do `verb` on the resource in `namespace` ('' = all namespaces)? */
interface Probe {
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource?: string | undefined;
  readonly verb: string;
  readonly namespace: string;
}

const describeProbe = (probe: Omit<Probe, 'namespace'> & { namespace: string }): string =>
  `${probe.verb} ${probe.apiGroup === '' ? '' : `${probe.apiGroup}/`}${probe.resource}${probe.subresource === undefined ? '' : `/${probe.subresource}`} in ${probe.namespace === '' ? 'all namespaces' : probe.namespace}`;

describe('deploy/helm/keyward on a real API server', () => {
  const admin = new KubeClient(adminKubeConfig());
  const clients: KubeClient[] = [];
  // A namespaced install in namespaces of its own: the cluster-wide roles have fixed names, and deploy/base's
  // test binds them to its ServiceAccount, so this test leaves them alone (it dry-runs them below).
  const release = `helm-${randomBytes(3).toString('hex')}`;
  let watched: string[] = [];
  let enforcement = '';
  let keycloakSecrets = '';
  let objects: Manifest[] = [];

  beforeAll(async () => {
    watched = [await createTestNamespace('helm-team'), await createTestNamespace('helm-team')];
    enforcement = await createTestNamespace('helm-enforcement');
    keycloakSecrets = await createTestNamespace('helm-keycloak');
    const values: Values = {
      createNamespace: true,
      namespaces: watched,
      apikeyEnforcement: { namespace: enforcement },
      keycloak: { url: 'https://keycloak.example', adminSecret: `${keycloakSecrets}/keycloak-admin` },
    };
    objects = inApplyOrder(helmTemplate({ namespace: release, values, includeCrds: true }));
  });

  afterAll(async () => {
    // The Deployment's pods would stay Pending (nothing schedules them here); everything else is inert.
    const deployment = objects.find((object) => object.kind === 'Deployment');
    if (deployment !== undefined) await admin.delete(refOf(deployment));
    admin.close();
    for (const client of clients) client.close();
  });

  it('accepts every object of `helm template --include-crds` by server-side apply, in dependency order', async () => {
    expect(objects.map((object) => object.kind)).toEqual(expect.arrayContaining(['CustomResourceDefinition', 'Namespace', 'ServiceAccount', 'Role', 'RoleBinding', 'Deployment', 'Service']));
    const applied: string[] = [];
    for (const object of objects) {
      const result = await admin.apply(refOf(object), object);
      applied.push(`${result.kind} ${result.metadata.namespace ?? ''}/${result.metadata.name}`);
    }
    expect(applied).toEqual(objects.map((object) => `${object.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name}`));
  });

  it('runs a pod template that meets the restricted Pod Security Standard the release namespace enforces', async () => {
    const { deployment } = operatorDeployment(objects);
    // A server-side dry run goes through admission (PodSecurity included) without creating the pod.
    const pod = await admin.raw<{ metadata: { namespace: string } }>({
      method: 'POST',
      path: `/api/v1/namespaces/${release}/pods`,
      query: { dryRun: 'All' },
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { ...deployment.spec.template.metadata, name: 'keyward-dry-run' }, spec: deployment.spec.template.spec },
      what: 'dry-run create Pod',
      verb: 'create',
      resource: 'pods',
    });
    expect(pod.metadata.namespace).toBe(release);
    // And PodSecurity does refuse a pod that breaks it there, so the dry run above means something.
    await expect(
      admin.raw({
        method: 'POST',
        path: `/api/v1/namespaces/${release}/pods`,
        query: { dryRun: 'All' },
        body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'privileged-dry-run' }, spec: { containers: [{ name: 'c', image: 'x', securityContext: { privileged: true } }] } },
        what: 'dry-run create a privileged Pod',
        verb: 'create',
        resource: 'pods',
      }),
    ).rejects.toThrow(/forbidden|violates PodSecurity/i);
  });

  it('accepts the cluster-wide install\'s objects too (a server-side dry run, which stores nothing)', async () => {
    const clusterWide = inApplyOrder(helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { createNamespace: true } }));
    expect(clusterWide.filter((object) => object.kind === 'ClusterRole').length).toBeGreaterThan(0);
    const accepted: string[] = [];
    for (const object of clusterWide.filter((candidate) => candidate.kind.startsWith('Cluster'))) {
      const result = await admin.raw<{ kind: string; metadata: { name: string } }>({
        method: 'PATCH',
        path: pathOf(object),
        query: { dryRun: 'All', fieldManager: 'keyward-helm-test', force: 'true' },
        body: object,
        contentType: ContentType.apply,
        what: `dry-run apply ${object.kind} ${object.metadata.name}`,
        verb: 'patch',
        resource: refOf(object).type.plural,
      });
      accepted.push(`${result.kind} ${result.metadata.name}`);
    }
    expect(accepted).toEqual(clusterWide.filter((object) => object.kind.startsWith('Cluster')).map((object) => `${object.kind} ${object.metadata.name}`));
  });

  it('lets the chart\'s ServiceAccount do exactly what the controllers need, where they need it', async () => {
    const { deployment, container } = operatorDeployment(objects);
    const serviceAccount = deployment.spec.template.spec.serviceAccountName;
    expect(objects.map((object) => `${object.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name}`)).toContain(`ServiceAccount ${release}/${serviceAccount}`);
    const identity = await serviceAccountIdentity(release, serviceAccount);
    const client = new KubeClient(kubeConfigFor({ kubeconfig: identity.kubeconfig }));
    clients.push(client);

    // Where each rule must hold, from the settings the chart's operator runs with.
    const config = parseRunConfig(container.args.slice(1), operatorEnvironment(container, release));
    if (!config.ok) throw new Error(config.error);
    expect([config.config.namespaces, config.config['enforcementNamespace'], config.config['keycloakAdminSecret']]).toEqual([watched, enforcement, { namespace: keycloakSecrets, name: 'keycloak-admin' }]);
    const namespaces = [...watched, release, enforcement, keycloakSecrets, 'default', ''];
    const placesOf = (scope: RuleScope): readonly string[] => {
      if (scope === 'watched') return watched;
      // A ClusterRole's grant holds wherever it is asked about.
      if (scope === 'cluster') return namespaces;
      return [scope.namespace === 'operator' ? release : scope.of(config.config)];
    };
    const declared = RBAC_COMPONENTS.flatMap((component) => (RBAC_RULES[component] ?? []).flatMap((rule) => permissionsOf([rule]).map((permission) => ({ permission, places: placesOf(rule.scope) }))));
    const granted = new Set(declared.flatMap(({ permission, places }) => places.map((namespace) => describeProbe({ ...permission, namespace }))));
    const unique = new Map<string, Probe>();
    for (const { permission } of declared) {
      for (const namespace of namespaces) {
        const probe = { apiGroup: permission.apiGroup, resource: permission.resource, subresource: permission.subresource, verb: permission.verb, namespace };
        unique.set(describeProbe(probe), probe);
      }
    }
    const forbidden: Probe[] = [
      { apiGroup: '', resource: 'configmaps', verb: 'delete', namespace: watched[0] ?? '' },
      { apiGroup: '', resource: 'pods', verb: 'create', namespace: release },
      { apiGroup: '', resource: 'secrets', verb: 'update', namespace: enforcement },
      { apiGroup: '', resource: 'secrets', verb: 'list', namespace: keycloakSecrets },
      { apiGroup: 'coordination.k8s.io', resource: 'leases', verb: 'delete', namespace: release },
      { apiGroup: 'rbac.authorization.k8s.io', resource: 'roles', verb: 'escalate', namespace: release },
    ];
    for (const probe of forbidden) unique.set(describeProbe(probe), probe);
    const probes = [...unique.values()];
    const expected = Object.fromEntries(probes.map((probe) => [describeProbe(probe), granted.has(describeProbe(probe))]));
    const review = async (): Promise<Record<string, boolean>> =>
      Object.fromEntries(
        await Promise.all(probes.map(async (probe) => [describeProbe(probe), await mayDo(client, { group: probe.apiGroup, resource: probe.resource, subresource: probe.subresource, verb: probe.verb, namespace: probe.namespace })] as const)),
      );
    // The authorizer learns about new bindings from its informers, a moment after they are written.
    const actual = await waitFor(async () => {
      const answers = await review();
      return JSON.stringify(answers) === JSON.stringify(expected) ? answers : undefined;
    }, { what: 'the authorizer to see the chart\'s bindings', timeoutMs: 10_000, intervalMs: 500 }).catch(review);
    expect(actual).toEqual(expected);

    // The matrix spelled out where it matters, so the expectation does not rest on the computation above alone.
    const [teamA = ''] = watched;
    expect({
      'list KeystoneApplicationCredentials in a watched namespace': actual[`list keystone.openstack.org/keystoneapplicationcredentials in ${teamA}`],
      'list KeystoneApplicationCredentials everywhere': actual['list keystone.openstack.org/keystoneapplicationcredentials in all namespaces'],
      'create Secrets in a watched namespace': actual[`create secrets in ${teamA}`],
      'get Secrets in default': actual['get secrets in default'],
      'create Secrets in the enforcement namespace': actual[`create secrets in ${enforcement}`],
      'get the Keycloak admin Secret': actual[`get secrets in ${keycloakSecrets}`],
      'update Leases in the release namespace': actual[`update coordination.k8s.io/leases in ${release}`],
      'update Leases in a watched namespace': actual[`update coordination.k8s.io/leases in ${teamA}`],
      'patch KeycloakRealm status in a watched namespace': actual[`patch vriesdemichael.github.io/keycloakrealms/status in ${teamA}`],
      'create Events in a watched namespace': actual[`create events in ${teamA}`],
      'create Events in default': actual['create events in default'],
    }).toEqual({
      'list KeystoneApplicationCredentials in a watched namespace': true,
      'list KeystoneApplicationCredentials everywhere': false,
      'create Secrets in a watched namespace': true,
      'get Secrets in default': false,
      'create Secrets in the enforcement namespace': true,
      'get the Keycloak admin Secret': true,
      'update Leases in the release namespace': true,
      'update Leases in a watched namespace': false,
      'patch KeycloakRealm status in a watched namespace': true,
      'create Events in a watched namespace': true,
      'create Events in default': false,
    });
  });
});
