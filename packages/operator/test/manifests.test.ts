import { describe, expect, it } from '@jest/globals';
import { join, relative, sep } from 'node:path';
import { defaultAPIKeyConfig } from '@keyward/apikey-enforcement';
import { CONTROLLER_NAMES, type ControllerName } from '../src/controllers.js';
import { parseRunConfig } from '../src/config.js';
import { DEFAULT_SERVICE_ACCOUNT } from '../src/options.js';
import { RBAC_COMPONENTS, RBAC_RULES, permissionsOf, rbacObjectName, type RbacComponent, type RbacRule, type RuleScope } from '../src/rbac.js';
import { METRICS_READER, rbacManifests, type RbacInstall } from '../src/rbac-manifests.js';
import { operatorVersion } from '../src/version.js';
import {
  DEPLOY_DIR,
  OPERATOR_NAMESPACE,
  baseManifests,
  describeManifest,
  kustomizationDirs,
  kustomizeBuild,
  readDocuments,
  readKustomization,
  resourceProblem,
  yamlFilesUnder,
  type Manifest,
} from './deploy.js';

const BASE = join(DEPLOY_DIR, 'base');
const NAMESPACED = join(DEPLOY_DIR, 'overlays', 'namespaced');
const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);
/** The default enforcement namespace: where deploy/base puts the apikey controller's Role. */
const ENFORCEMENT_NAMESPACE = defaultAPIKeyConfig.enforcementNamespace;
/** The cluster-wide install deploy/base ships. */
const CLUSTER_WIDE: RbacInstall = {
  controllers: CONTROLLER_NAMES,
  namespaces: 'all',
  operatorNamespace: OPERATOR_NAMESPACE,
  enforcementNamespace: ENFORCEMENT_NAMESPACE,
  serviceAccount: DEFAULT_SERVICE_ACCOUNT,
};

/** A component's rules; every component of RBAC_COMPONENTS has some. */
function rulesOf(component: RbacComponent): readonly RbacRule[] {
  const rules = RBAC_RULES[component];
  if (rules === undefined) throw new Error(`no RBAC rules for ${component}`);
  return rules;
}

/** Where a scope lands in the cluster-wide install: undefined for cluster-wide. */
function namespaceOf(scope: RuleScope): string | undefined {
  if (scope === 'watched' || scope === 'cluster') return undefined;
  return scope.namespace === 'operator' ? OPERATOR_NAMESPACE : scope.of(CLUSTER_WIDE);
}

const isRbac = (object: Manifest): boolean => RBAC_KINDS.has(object.kind);
/** The operator's own roles: every Role and ClusterRole but the one for scrapers of its metrics. */
const isOperatorRole = (object: Manifest): boolean => (object.kind === 'Role' || object.kind === 'ClusterRole') && !object.metadata.name.startsWith(METRICS_READER);
/** Objects in a stable order, to compare sets of them. */
const sorted = (objects: readonly unknown[]): unknown[] => [...objects].sort((a, b) => describeManifest(a as Manifest).localeCompare(describeManifest(b as Manifest)));
const SERVICE_ACCOUNT = { kind: 'ServiceAccount', name: 'keyward', namespace: OPERATOR_NAMESPACE };
const CRD_NAMES: Readonly<Record<ControllerName, string>> = {
  'keystone-appcred': 'keystoneapplicationcredentials.keystone.openstack.org',
  'apikey-enforcement': 'apikeys.devportal.kuadrant.io',
  'keycloak-realm': 'keycloakrealms.vriesdemichael.github.io',
  'keycloak-client': 'keycloakclients.vriesdemichael.github.io',
  'keystone-service': 'keystones.keystone.openstack.c5c3.io',
};

/** The CRD a controller serves. */
function crdOf(controller: ControllerName): string {
  const name = CRD_NAMES[controller];
  if (name === undefined) throw new Error(`no CRD known for ${controller}: add it to CRD_NAMES`);
  return name;
}


interface PodSpec {
  serviceAccountName: string;
  automountServiceAccountToken: boolean;
  securityContext: Record<string, unknown>;
  containers: Container[];
}

interface Container {
  image: string;
  args: string[];
  env: { name: string; value?: string; valueFrom?: unknown }[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: { httpGet: { path: string; port: string | number } };
  readinessProbe: { httpGet: { path: string; port: string | number } };
  resources: unknown;
  securityContext: Record<string, unknown>;
}

function deployment(objects: readonly Manifest[]): { spec: { replicas: number; selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> }; spec: PodSpec } } } {
  const found = objects.filter((object) => object.kind === 'Deployment');
  expect(found.map(describeManifest)).toEqual([`Deployment ${OPERATOR_NAMESPACE}/keyward`]);
  return found[0] as unknown as ReturnType<typeof deployment>;
}

function onlyContainer(objects: readonly Manifest[]): Container {
  const [container, ...others] = deployment(objects).spec.template.spec.containers;
  if (container === undefined || others.length > 0) throw new Error('the Deployment should have exactly one container');
  return container;
}

/**
 * A container's environment as the kubelet gives it: downward API fields from `fields`, and $(NAME) in a value
 * replaced by an earlier variable's value.
 */
function containerEnvironment(container: Container, fields: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { name, value, valueFrom } of container.env) {
    const fieldPath = (valueFrom as { fieldRef?: { fieldPath?: string } } | undefined)?.fieldRef?.fieldPath;
    const raw = fieldPath === undefined ? value : fields[fieldPath];
    if (raw === undefined) throw new Error(`${name}: no value for ${String(fieldPath)}`);
    env[name] = raw.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (reference, variable: string) => env[variable] ?? reference);
  }
  return env;
}

/** "component scope group resource verb" for every rule of the Roles and ClusterRoles, sorted. */
function grantedPermissions(objects: readonly Manifest[]): string[] {
  const scopeOf = (object: Manifest): string => {
    if (object.kind === 'ClusterRole') return 'cluster';
    if (object.metadata.namespace === OPERATOR_NAMESPACE) return 'operator';
    if (object.metadata.namespace === ENFORCEMENT_NAMESPACE) return 'enforcement';
    return `namespace ${String(object.metadata.namespace)}`;
  };
  return objects
    .filter(isOperatorRole)
    .flatMap((role) => {
      // A namespaced install's ClusterRoles carry the operator's namespace after the component.
      const name = role.metadata.name.replace(/^keyward-/, '');
      const component = role.kind === 'ClusterRole' && name.endsWith(`-${OPERATOR_NAMESPACE}`) ? name.slice(0, -OPERATOR_NAMESPACE.length - 1) : name;
      const rules = role['rules'] as { apiGroups: string[]; resources: string[]; verbs: string[] }[];
      return permissionsOf(rules.map((rule) => ({ ...rule, scope: 'watched' }))).map(
        (permission) => `${component} ${scopeOf(role)} ${permission.apiGroup}/${permission.resource}${permission.subresource === undefined ? '' : `/${permission.subresource}`} ${permission.verb}`,
      );
    })
    .sort();
}

/** A declared scope as grantedPermissions names it: its namespace in the cluster-wide install by role. */
function placeOf(scope: RuleScope): string {
  if (scope === 'watched' || scope === 'cluster') return 'cluster';
  if (scope.namespace === 'operator') return 'operator';
  // Named by where it lands, as grantedPermissions names a Role: the Keycloak admin Secret's namespace defaults to the operator's.
  const namespace = scope.of(CLUSTER_WIDE);
  if (namespace === OPERATOR_NAMESPACE) return 'operator';
  return namespace === ENFORCEMENT_NAMESPACE ? 'enforcement' : `namespace ${namespace}`;
}

/** The same for the declared matrix. */
function declaredPermissions(components: readonly RbacComponent[]): string[] {
  return components
    .flatMap((component) =>
      permissionsOf(rulesOf(component)).map(
        (permission) =>
          `${component} ${placeOf(permission.scope)} ${permission.apiGroup}/${permission.resource}${permission.subresource === undefined ? '' : `/${permission.subresource}`} ${permission.verb}`,
      ),
    )
    .sort();
}

/** Every Role and ClusterRole is bound, by one binding of the same name, to the operator's ServiceAccount only. */
function expectBoundToServiceAccount(objects: readonly Manifest[]): void {
  const roles = objects.filter(isOperatorRole);
  const bindings = objects.filter((object) => object.kind === 'RoleBinding' || object.kind === 'ClusterRoleBinding');
  expect(bindings.map(describeManifest).sort()).toEqual(roles.map((role) => describeManifest({ ...role, kind: `${role.kind}Binding` })).sort());
  for (const binding of bindings) {
    const roleKind = binding.kind.replace(/Binding$/, '');
    expect(binding['roleRef']).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: binding.metadata.name });
    expect(binding['subjects']).toEqual([SERVICE_ACCOUNT]);
  }
}

describe('deploy/', () => {
  it('has only YAML that parses without errors or duplicate keys', () => {
    // A Helm chart's templates are Go templates, not YAML: helm.test.ts parses what they render instead.
    const isHelmTemplate = (file: string): boolean => relative(DEPLOY_DIR, file).split(sep)[0] === 'helm' && relative(DEPLOY_DIR, file).split(sep).includes('templates');
    const files = yamlFilesUnder(DEPLOY_DIR).filter((file) => !isHelmTemplate(file));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(() => readDocuments(file)).not.toThrow();
  });

  it.each(kustomizationDirs().map((dir) => [relative(DEPLOY_DIR, dir), dir]))('%s/kustomization.yaml lists resources kustomize can load', (_name, dir) => {
    const { resources = [] } = readKustomization(dir);
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.map((entry) => resourceProblem(dir, entry)).filter((problem) => problem !== undefined)).toEqual([]);
  });

  it('has a base of the CRDs, the namespace, the ServiceAccount, the RBAC, the Deployment and the metrics Service', () => {
    const expected = [
      `CustomResourceDefinition ${crdOf('keystone-appcred')}`,
      `CustomResourceDefinition ${crdOf('apikey-enforcement')}`,
      `CustomResourceDefinition ${crdOf('keycloak-realm')}`,
      `CustomResourceDefinition ${crdOf('keycloak-client')}`,
      `CustomResourceDefinition ${crdOf('keystone-service')}`,
      `Namespace ${OPERATOR_NAMESPACE}`,
      `ServiceAccount ${OPERATOR_NAMESPACE}/keyward`,
      ...RBAC_COMPONENTS.flatMap((component) => {
        const name = rbacObjectName(component);
        const namespaces = [...new Set(rulesOf(component).map((rule) => namespaceOf(rule.scope)))];
        return namespaces.flatMap((namespace) => (namespace === undefined ? [`ClusterRole ${name}`, `ClusterRoleBinding ${name}`] : [`Role ${namespace}/${name}`, `RoleBinding ${namespace}/${name}`]));
      }),
      `ClusterRole ${METRICS_READER}`,
      `Deployment ${OPERATOR_NAMESPACE}/keyward`,
      `Service ${OPERATOR_NAMESPACE}/keyward-metrics`,
    ];
    expect(baseManifests().map(describeManifest).sort()).toEqual(expected.sort());
  });

  it('builds deploy/base to exactly its manifests and CRDs', () => {
    expect(kustomizeBuild(BASE).map(describeManifest).sort()).toEqual(baseManifests().map(describeManifest).sort());
  });

  it('names the namespace of every namespaced object (kustomize does not set it)', () => {
    const clusterScoped = new Set(['CustomResourceDefinition', 'Namespace', 'ClusterRole', 'ClusterRoleBinding']);
    for (const object of baseManifests()) {
      expect([describeManifest(object), object.metadata.namespace !== undefined]).toEqual([describeManifest(object), !clusterScoped.has(object.kind)]);
    }
  });
});

describe('deploy/base RBAC', () => {
  it('grants exactly the permissions of rbac.ts, no more, no fewer', () => {
    expect(grantedPermissions(baseManifests())).toEqual(declaredPermissions(RBAC_COMPONENTS));
  });

  it('is exactly what `keyward rbac` prints for the cluster-wide install', () => {
    expect(sorted(baseManifests().filter(isRbac))).toEqual(sorted(rbacManifests(CLUSTER_WIDE)));
  });

  it('grants none of the verbs the code never uses', () => {
    const unused = [
      'keystone-appcred cluster keystone.openstack.org/keystoneapplicationcredentials update',
      'keystone-appcred cluster keystone.openstack.org/keystoneapplicationcredentials/status get',
      'keystone-appcred cluster keystone.openstack.org/keystoneapplicationcredentials/status update',
      'apikey-enforcement cluster devportal.kuadrant.io/apikeys/status get',
      'apikey-enforcement cluster devportal.kuadrant.io/apikeys/status update',
      'apikey-enforcement enforcement /secrets patch',
      'runtime cluster events.k8s.io/events patch',
    ];
    const granted = grantedPermissions(baseManifests());
    expect(unused.filter((permission) => granted.includes(permission))).toEqual([]);
    // The same strings do name granted permissions: the status patch, the enforcement Secret create.
    expect(granted).toEqual(expect.arrayContaining(['keystone-appcred cluster keystone.openstack.org/keystoneapplicationcredentials/status patch', 'apikey-enforcement enforcement /secrets create']));
  });

  it('binds every role to the keyward ServiceAccount only', () => {
    expectBoundToServiceAccount(baseManifests());
  });

  it('names each role after its component', () => {
    const roles = baseManifests().filter(isOperatorRole);
    expect([...new Set(roles.map((role) => role.metadata.name))].sort()).toEqual(RBAC_COMPONENTS.map(rbacObjectName).sort());
  });

  it('has a ClusterRole that lets scrapers get /metrics and nothing else, bound to nobody', () => {
    const reader = baseManifests().filter((object) => object.metadata.name === METRICS_READER);
    expect(reader.map(describeManifest)).toEqual([`ClusterRole ${METRICS_READER}`]);
    expect(reader[0]?.['rules']).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
  });
});

describe('deploy/base Deployment', () => {
  const objects = baseManifests();
  const { spec } = deployment(objects);
  const pod = spec.template.spec;
  const container = onlyContainer(objects);
  /** A container setting, or the pod's when the container does not set it. */
  const effective = (field: string): unknown => container.securityContext[field] ?? pod.securityContext[field];
  const portNumber = (port: string | number): number | undefined => (typeof port === 'number' ? port : container.ports.find((candidate) => candidate.name === port)?.containerPort);

  it('runs non-root, read-only, without privilege escalation or capabilities, under the runtime\'s seccomp profile', () => {
    expect({
      runAsNonRoot: effective('runAsNonRoot'),
      runAsUser: effective('runAsUser'),
      seccompProfile: effective('seccompProfile'),
      readOnlyRootFilesystem: container.securityContext['readOnlyRootFilesystem'],
      allowPrivilegeEscalation: container.securityContext['allowPrivilegeEscalation'],
      capabilities: container.securityContext['capabilities'],
    }).toEqual({
      runAsNonRoot: true,
      runAsUser: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('runs two replicas of the packaged version with leader election, as the keyward ServiceAccount', () => {
    expect(spec.replicas).toBe(2);
    expect(container.image).toBe(`keyward/operator:${operatorVersion()}`);
    expect(container.args).toEqual(['run']);
    expect(pod.serviceAccountName).toBe('keyward');
    expect(pod.automountServiceAccountToken).toBe(true);
    expect(spec.selector.matchLabels).toEqual(spec.template.metadata.labels);
  });

  it('serves health and metrics on the pod IP, probes /healthz and /readyz there, and exposes metrics', () => {
    const podIp = '10.1.2.3';
    const config = parseRunConfig(container.args.slice(1), containerEnvironment(container, { 'status.podIP': podIp, 'metadata.namespace': OPERATOR_NAMESPACE }));
    if (!config.ok) throw new Error(config.error);
    expect(config.config.leaderElection.enabled).toBe(true);
    const { metricsBindAddress, healthBindAddress } = config.config;
    // The operator's defaults are loopback only; the kubelet and the scraper reach the pod at its IP.
    expect([metricsBindAddress, healthBindAddress]).toEqual([{ host: podIp, port: 8080 }, { host: podIp, port: 8081 }]);
    expect({ port: portNumber(container.livenessProbe.httpGet.port), path: container.livenessProbe.httpGet.path }).toEqual({ port: 8081, path: '/healthz' });
    expect({ port: portNumber(container.readinessProbe.httpGet.port), path: container.readinessProbe.httpGet.path }).toEqual({ port: 8081, path: '/readyz' });
    expect(portNumber('metrics')).toBe(8080);
  });

  it('requests 50m CPU and 128Mi, limits memory to 512Mi, and takes the lease namespace from the downward API', () => {
    expect(container.resources).toEqual({ requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '512Mi' } });
    expect(container.env).toContainEqual({ name: 'KEYWARD_LEASE_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
  });

  it('is scraped through the keyward-metrics Service', () => {
    const service = objects.find((object) => object.kind === 'Service') as unknown as { metadata: { name: string }; spec: { selector: Record<string, string>; ports: { port: number; targetPort: string }[] } };
    expect(service.metadata.name).toBe('keyward-metrics');
    expect(service.spec.selector).toEqual(spec.template.metadata.labels);
    expect(service.spec.ports.map((port) => [port.port, portNumber(port.targetPort)])).toEqual([[8080, 8080]]);
  });
});

describe.each(CONTROLLER_NAMES.map((controller) => [controller]))('deploy/overlays/%s-only', (controller) => {
  const other = CONTROLLER_NAMES.filter((name) => name !== controller);
  const build = (): Manifest[] => kustomizeBuild(join(DEPLOY_DIR, 'overlays', `${controller}-only`));

  it(`runs only ${controller}`, () => {
    const { args } = onlyContainer(build());
    expect(args[0]).toBe('run');
    const config = parseRunConfig(args.slice(1), {});
    expect(config.ok && config.config.controllers).toEqual([controller]);
  });

  it('keeps only its own CRD and the RBAC of the runtime and its controller, bound as in the base', () => {
    const objects = build();
    expect(objects.filter((object) => object.kind === 'CustomResourceDefinition').map((crd) => crd.metadata.name)).toEqual([crdOf(controller)]);
    expect(grantedPermissions(objects)).toEqual(declaredPermissions(['runtime', controller]));
    expectBoundToServiceAccount(objects);
    const removed = new Set([...other.map(rbacObjectName), ...other.map(crdOf)]);
    expect(baseManifests().filter((object) => !removed.has(object.metadata.name)).length).toBe(objects.length);
  });
});

describe('deploy/overlays/namespaced', () => {
  const objects = kustomizeBuild(NAMESPACED);
  const { args } = onlyContainer(objects);
  const config = parseRunConfig(args.slice(1), {});
  if (!config.ok) throw new Error(config.error);
  const { namespaces, controllers, enforcementNamespace } = config.config;
  if (typeof enforcementNamespace !== 'string') throw new Error('the run configuration should name an enforcement namespace');
  if (namespaces === 'all') throw new Error('deploy/overlays/namespaced should run with --namespaces');

  it('runs the operator of the base watching only a list of namespaces', () => {
    expect(namespaces).toEqual(['team-a', 'team-b']);
    /** The object with the container's arguments left out, for the Deployment. */
    const withoutArgs = (object: Manifest): unknown => {
      if (object.kind !== 'Deployment') return object;
      const copy = structuredClone(object) as unknown as ReturnType<typeof deployment>;
      for (const container of copy.spec.template.spec.containers) container.args = [];
      return copy;
    };
    expect(sorted(objects.filter((object) => !isRbac(object)).map(withoutArgs))).toEqual(
      sorted(baseManifests().filter((object) => !isRbac(object)).map(withoutArgs)),
    );
  });

  it('has Roles and RoleBindings only but for the cluster-scoped reviews and the metrics reader, exactly what `keyward rbac` prints for its Deployment\'s namespaces', () => {
    const rbac = objects.filter(isRbac);
    expect([...new Set(rbac.map((object) => object.kind))].sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);
    expect(rbac.filter((object) => object.kind.startsWith('Cluster')).map(describeManifest).sort()).toEqual(['ClusterRole keyward-metrics-reader-keyward-system', 'ClusterRole keyward-runtime-keyward-system', 'ClusterRoleBinding keyward-runtime-keyward-system']);
    expect(grantedPermissions(rbac.filter((object) => object.kind === 'ClusterRole'))).toEqual(['runtime cluster authentication.k8s.io/tokenreviews create', 'runtime cluster authorization.k8s.io/subjectaccessreviews create']);
    expect(sorted(rbac)).toEqual(sorted(rbacManifests({ ...CLUSTER_WIDE, namespaces, controllers, enforcementNamespace })));
    expectBoundToServiceAccount(objects);
  });

  it('grants in each watched namespace what the base grants cluster-wide, and the same as the base elsewhere', () => {
    const granted = grantedPermissions(objects);
    const clusterWide = grantedPermissions(baseManifests());
    // Cluster-scoped resources (the reviews) are granted cluster-wide in every install.
    const clusterScoped = new Set(
      RBAC_COMPONENTS.flatMap((component) => permissionsOf(rulesOf(component).filter((rule) => rule.scope === 'cluster')).map((permission) => `${component} cluster ${permission.apiGroup}/${permission.resource} ${permission.verb}`)),
    );
    const expected = clusterWide.flatMap((permission) => {
      const [component, scope, ...rest] = permission.split(' ');
      return scope === 'cluster' && !clusterScoped.has(permission) ? namespaces.map((namespace) => [component, `namespace ${namespace}`, ...rest].join(' ')) : [permission];
    });
    expect(granted).toEqual(expected.sort());
  });
});
