import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTROLLER_NAMES, type ControllerName } from '../src/controllers.js';
import { parseRunConfig } from '../src/config.js';
import { operatorVersion } from '../src/version.js';
import { DEPLOY_DIR, OPERATOR_NAMESPACE, baseManifests, describeManifest, kustomizeBuild, manifestsIn, type Manifest } from './deploy.js';
import {
  CHART_DIR,
  POD_IP,
  RELEASE,
  chartDefaults,
  helm,
  helmTemplate,
  helmTemplateAsSubchartOutcome,
  helmTemplateOutcome,
  keywardRbacFor,
  operatorDeployment,
  operatorEnvironment,
  parseStream,
  runHelm,
  runHelmWithValues,
  type Values,
} from './helm-chart.js';
import { promtool, promtoolTestRules, runPromtool } from './promtool.js';

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);
const isRbac = (object: Manifest): boolean => RBAC_KINDS.has(object.kind);
/** Objects in a stable order, to compare sets of them. */
const sorted = (objects: readonly Manifest[]): Manifest[] => [...objects].sort((a, b) => describeManifest(a).localeCompare(describeManifest(b)));
const rbacOf = (objects: readonly Manifest[]): Manifest[] => sorted(objects.filter(isRbac));

/** The run configuration the operator of a rendered chart starts with, in `namespace`. */
function runConfigOf(objects: readonly Manifest[], namespace: string): ReturnType<typeof parseRunConfig> {
  const { container } = operatorDeployment(objects);
  return parseRunConfig(container.args.slice(1), operatorEnvironment(container, namespace));
}

/** The same, failing the test on an invalid configuration. */
function validRunConfig(objects: readonly Manifest[], namespace: string): Extract<ReturnType<typeof parseRunConfig>, { ok: true }>['config'] {
  const result = runConfigOf(objects, namespace);
  if (!result.ok) throw new Error(`the chart's Deployment does not start: ${result.error}`);
  return result.config;
}

/** Value sets with the release namespace each is rendered in. */
const VALUE_SETS: readonly (readonly [string, string, Values])[] = [
  ['defaults (cluster-wide, all controllers)', OPERATOR_NAMESPACE, {}],
  ['namespaced', OPERATOR_NAMESPACE, { namespaces: ['team-a', 'team-b'] }],
  ['namespaced, the release namespace among the watched', 'ops', { namespaces: ['ops', 'team-a'] }],
  ['keystone-appcred only', OPERATOR_NAMESPACE, { controllers: ['keystone-appcred'] }],
  ['apikey-enforcement only, another enforcement namespace, namespaced', 'platform', { controllers: ['apikey-enforcement'], namespaces: ['apps'], apikeyEnforcement: { namespace: 'gateway' } }],
  [
    'the Keycloak controllers with an admin Secret elsewhere, another ServiceAccount',
    'identity',
    { controllers: ['keycloak-realm', 'keycloak-client'], keycloak: { url: 'https://keycloak.example', adminSecret: 'keycloak/admin-credentials' }, serviceAccount: { name: 'keyward-operator' } },
  ],
  ['keycloak-realm with another operator namespace and no admin Secret', 'identity', { controllers: ['keycloak-realm'], keycloak: { operatorNamespace: 'keycloak-ops' }, namespaces: ['realms'] }],
  ['keycloak-client and keystone-appcred, namespaced', OPERATOR_NAMESPACE, { controllers: ['keycloak-client', 'keystone-appcred'], namespaces: ['team-a'] }],
  ['keystone-service only, namespaced, another cluster domain', 'identity', { controllers: ['keystone-service'], namespaces: ['keystones'], keystoneService: { clusterDomain: 'cluster.example' } }],
];

describe('the promtool binary', () => {
  it('is built at the version tools/promtool/VERSION pins (scripts/setup builds it)', () => {
    const pinned = readFileSync(join(DEPLOY_DIR, '..', 'tools', 'promtool', 'VERSION'), 'utf8').trim();
    expect(promtool()).toContain(pinned);
    expect(runPromtool(['--version']).stdout.split('\n')[0]).toBe(`promtool, version ${pinned} (branch: , revision: unknown)`);
  });
});

describe('the Helm binary', () => {
  it('is built at the version tools/helm/VERSION pins (scripts/setup builds it)', () => {
    const pinned = readFileSync(join(DEPLOY_DIR, '..', 'tools', 'helm', 'VERSION'), 'utf8').trim();
    expect(helm()).toContain(pinned);
    expect(runHelm(['version', '--template', '{{.Version}}'])).toMatchObject({ status: 0, stdout: pinned });
  });
});

describe('deploy/helm/keyward', () => {
  it('passes helm lint', () => {
    const outcome = runHelm(['lint', '--strict', CHART_DIR]);
    expect({ status: outcome.status, stderr: outcome.stderr }).toEqual({ status: 0, stderr: '' });
    expect(outcome.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
  });

  it('deploys the operator version the chart names, with the image deploy/base uses', () => {
    const chart = parseStream(readFileSync(join(CHART_DIR, 'Chart.yaml'), 'utf8'), 'Chart.yaml')[0] as unknown as { appVersion: string; version: string };
    expect(chart.appVersion).toBe(operatorVersion());
    const { container } = operatorDeployment(helmTemplate({ namespace: OPERATOR_NAMESPACE }));
    expect(container.image).toBe(operatorDeployment(baseManifests()).container.image);
    expect(operatorDeployment(helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { image: { repository: 'registry.example/keyward', tag: '9.9.9' } } })).container.image).toBe('registry.example/keyward:9.9.9');
  });

  it('renders by default the ServiceAccount, the RBAC, the Deployment, its disruption budget and the metrics Service, in the release namespace', () => {
    const objects = helmTemplate({ namespace: 'ops' });
    const nonRbac = objects.filter((object) => !isRbac(object)).map(describeManifest).sort();
    expect(nonRbac).toEqual(['Deployment ops/keyward', 'PodDisruptionBudget ops/keyward', 'Service ops/keyward-metrics', 'ServiceAccount ops/keyward']);
    expect(objects.filter(isRbac).length).toBeGreaterThan(0);
  });

  it('renders with --include-crds exactly the CRDs of deploy/crds', () => {
    const crds = helmTemplate({ namespace: OPERATOR_NAMESPACE, includeCrds: true }).filter((object) => object.kind === 'CustomResourceDefinition');
    expect(sorted(crds)).toEqual(sorted(manifestsIn(join(DEPLOY_DIR, 'crds')).filter((object) => object.kind === 'CustomResourceDefinition')));
  });

  it('renders the release namespace, enforcing the restricted Pod Security Standard, only when asked', () => {
    const namespaceOf = (values: Values): Manifest[] => helmTemplate({ namespace: 'ops', values }).filter((object) => object.kind === 'Namespace');
    expect(namespaceOf({})).toEqual([]);
    const [namespace] = namespaceOf({ createNamespace: true });
    expect(namespace?.metadata.name).toBe('ops');
    expect(namespace?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it.each([
    [{ controllers: ['keystone-appcred', 'keystone'] }, "at '/controllers/1': value must be one of"],
    [{ controllers: [] }, "at '/controllers': minItems"],
    [{ keycloak: { adminSecrett: 'keycloak/admin' } }, "at '/keycloak': additional properties 'adminSecrett' not allowed"],
    [{ keystoneService: { clusterDomian: 'cluster.example' } }, "at '/keystoneService': additional properties 'clusterDomian' not allowed"],
    [{ kubernetesApi: { qps: 0 } }, "at '/kubernetesApi/qps'"],
    [{ logging: { level: 'verbose' } }, "at '/logging/level'"],
    [{ replicas: 2, leaderElection: { enabled: false } }, 'replicas: more than one replica needs leaderElection.enabled'],
    [{ keycloak: { adminSecret: 'admin-credentials' } }, 'keycloak.adminSecret: "admin-credentials" is not namespace/name'],
    [{ keycloak: { adoptUnowned: true } }, 'keycloak.adoptUnowned: no longer taken, adoption is not operator-wide; list the namespaces (or namespace/realm) that may adopt in keycloak.adoptUnownedNamespaces'],
    [{ keycloak: { adoptUnownedNamespaces: ['team-a/shop/x'] } }, "at '/keycloak/adoptUnownedNamespaces/0'"],
  ])('refuses %j (values.schema.json, or the templates\' own checks)', (values, message) => {
    const outcome = helmTemplateOutcome({ namespace: OPERATOR_NAMESPACE, values });
    expect(outcome.status).not.toBe(0);
    expect(outcome.stderr).toContain(message);
  });

  it.each([
    [{ controllers: ['keystone-appcred', 'keystone'] }, 'controllers: unknown controller "keystone"'],
    [{ controllers: [] }, 'controllers: name at least one of'],
  ])('refuses %j even without schema validation', (values, message) => {
    const outcome = helmTemplateOutcome({ namespace: OPERATOR_NAMESPACE, values, skipSchemaValidation: true });
    expect(outcome.status).not.toBe(0);
    expect(outcome.stderr).toContain(message);
  });
});

describe('the chart\'s PodDisruptionBudget', () => {
  const budgetsOf = (values: Values): Manifest[] => helmTemplate({ namespace: OPERATOR_NAMESPACE, values }).filter((object) => object.kind === 'PodDisruptionBudget');

  it('keeps one of the two default replicas running through a drain, selecting exactly the Deployment\'s pods', () => {
    const objects = helmTemplate({ namespace: OPERATOR_NAMESPACE });
    const budget = objects.find((object) => object.kind === 'PodDisruptionBudget') as unknown as { apiVersion: string; metadata: { namespace: string }; spec: Record<string, unknown> } | undefined;
    const { deployment } = operatorDeployment(objects);
    expect(deployment.spec.replicas).toBe(2);
    expect(budget?.apiVersion).toBe('policy/v1');
    expect(budget?.metadata.namespace).toBe(OPERATOR_NAMESPACE);
    expect(budget?.spec).toEqual({ minAvailable: 1, selector: { matchLabels: deployment.spec.selector.matchLabels } });
  });

  it('takes another minimum, a number or a percentage', () => {
    expect(budgetsOf({ replicas: 3, podDisruptionBudget: { minAvailable: 2 } }).map((budget) => budget['spec'])).toEqual([expect.objectContaining({ minAvailable: 2 })]);
    expect(budgetsOf({ podDisruptionBudget: { minAvailable: '50%' } }).map((budget) => budget['spec'])).toEqual([expect.objectContaining({ minAvailable: '50%' })]);
  });

  it.each([
    ['one replica with leader election', { replicas: 1 }],
    ['one replica without leader election', { replicas: 1, leaderElection: { enabled: false } }],
    ['no replica', { replicas: 0 }],
    ['two replicas, the budget turned off', { podDisruptionBudget: { enabled: false } }],
  ])('is left out with %s, where it would block every drain or is not wanted', (_name, values) => {
    expect(budgetsOf(values)).toEqual([]);
  });

  it.each([[{ podDisruptionBudget: { minAvailable: 0 } }], [{ podDisruptionBudget: { minAvailable: 'one' } }], [{ podDisruptionBudget: { maxUnavailable: 1 } }]])('refuses %j', (values) => {
    const outcome = helmTemplateOutcome({ namespace: OPERATOR_NAMESPACE, values });
    expect(outcome.status).not.toBe(0);
    expect(outcome.stderr).toContain("at '/podDisruptionBudget");
  });
});

describe('the chart\'s notes', () => {
  const notesOf = (namespace: string, values: Values): string => {
    const outcome = runHelmWithValues(['install', '--dry-run=client', RELEASE, CHART_DIR, '--namespace', namespace], values);
    if (outcome.status !== 0) throw new Error(outcome.stderr);
    return outcome.stdout.split('\nNOTES:\n')[1] ?? '';
  };

  it('say how to let Prometheus read the secure metrics, with the reader ClusterRole of the install', () => {
    expect(notesOf('ops', {})).toContain('kubectl create clusterrolebinding prometheus-keyward-metrics-reader --clusterrole keyward-metrics-reader --serviceaccount');
    expect(notesOf('ops', { namespaces: ['team-a'] })).toContain('--clusterrole keyward-metrics-reader-ops ');
    expect(notesOf('ops', {})).toContain('self-signed');
  });

  it('say when the metrics are plain, and name the disruption budget only when there is one', () => {
    expect(notesOf('ops', { metrics: { secure: false } })).toContain('Metrics: plain http on port 8080');
    expect(notesOf('ops', {})).toContain('a PodDisruptionBudget keeps 1 running');
    expect(notesOf('ops', { replicas: 1 })).not.toContain('PodDisruptionBudget');
  });
});

describe('deploy/helm/keyward as a subchart', () => {
  it('renders in an umbrella chart with no values, though Helm hands it the parent\'s global values', () => {
    const outcome = helmTemplateAsSubchartOutcome(OPERATOR_NAMESPACE, {});
    expect({ status: outcome.status, stderr: outcome.stderr }).toEqual({ status: 0, stderr: '' });
    expect(operatorDeployment(parseStream(outcome.stdout, 'helm template')).deployment.metadata.namespace).toBe(OPERATOR_NAMESPACE);
  });

  it('takes the parent\'s global values and its own under its name, and still checks those', () => {
    const outcome = helmTemplateAsSubchartOutcome('ops', { global: { region: 'eu-1' }, keyward: { controllers: ['keystone-appcred'] } });
    expect(outcome.status).toBe(0);
    expect(validRunConfig(parseStream(outcome.stdout, 'helm template'), 'ops').controllers).toEqual(['keystone-appcred']);
    const refused = helmTemplateAsSubchartOutcome('ops', { global: { region: 'eu-1' }, keyward: { controllers: ['keystone'] } });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("at '/controllers/0': value must be one of");
  });
});

describe('the chart\'s RBAC', () => {
  it.each(VALUE_SETS)('is exactly what `keyward rbac` prints for the chart\'s operator: %s', async (_name, namespace, values) => {
    const objects = helmTemplate({ namespace, values });
    const rendered = rbacOf(objects);
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered).toEqual(rbacOf(await keywardRbacFor(objects, namespace)));
  });

  it('is, with the defaults in keyward-system, exactly the RBAC of deploy/base', () => {
    expect(rbacOf(helmTemplate({ namespace: OPERATOR_NAMESPACE }))).toEqual(rbacOf(baseManifests()));
  });

  it('is, for the namespaces of deploy/overlays/namespaced, exactly its RBAC', () => {
    const overlay = kustomizeBuild(join(DEPLOY_DIR, 'overlays', 'namespaced'));
    const { namespaces } = validRunConfig(overlay, OPERATOR_NAMESPACE);
    expect(namespaces).not.toBe('all');
    expect(rbacOf(helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { namespaces } }))).toEqual(rbacOf(overlay));
  });

  it.each(CONTROLLER_NAMES.map((controller) => [controller]))('is, for %s alone, exactly the RBAC of its -only overlay', (controller: ControllerName) => {
    const overlay = kustomizeBuild(join(DEPLOY_DIR, 'overlays', `${controller}-only`));
    expect(rbacOf(helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { controllers: [controller] } }))).toEqual(rbacOf(overlay));
  });

  it('holds in a namespaced install no ClusterRole but the reviews of the secure metrics and the metrics reader, named after the release namespace, and a Role in each watched namespace', () => {
    const objects = helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { namespaces: ['team-a', 'team-b'] } });
    const clusterWide = objects.filter((object) => object.kind.startsWith('Cluster'));
    expect(clusterWide.map(describeManifest).sort()).toEqual(['ClusterRole keyward-metrics-reader-keyward-system', 'ClusterRole keyward-runtime-keyward-system', 'ClusterRoleBinding keyward-runtime-keyward-system']);
    expect(clusterWide.filter((object) => object.kind === 'ClusterRole').map((role) => role['rules'])).toEqual([
      [
        { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
        { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      ],
      [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
    ]);
    const places = new Set(objects.filter((object) => object.kind === 'Role').map((role) => role.metadata.namespace));
    expect([...places].sort()).toEqual(['keyward-system', 'kuadrant', 'team-a', 'team-b']);
  });
});

describe('the chart\'s Deployment', () => {
  it('starts the operator with the same configuration as deploy/base, given the defaults', () => {
    expect(validRunConfig(helmTemplate({ namespace: OPERATOR_NAMESPACE }), OPERATOR_NAMESPACE)).toEqual(validRunConfig(baseManifests(), OPERATOR_NAMESPACE));
  });

  it('runs the pod of deploy/base: replicas, security, probes, ports, resources, volumes', () => {
    const chart = operatorDeployment(helmTemplate({ namespace: OPERATOR_NAMESPACE })).deployment;
    const base = operatorDeployment(baseManifests()).deployment;
    /** The parts of a Deployment that decide how the pod runs, without the container's env and the labels. */
    const shape = ({ spec }: typeof chart): unknown => {
      const { containers, ...pod } = spec.template.spec;
      const { terminationGracePeriodSeconds: _grace, ...podWithoutGrace } = pod;
      return {
        replicas: spec.replicas,
        selector: spec.selector,
        pod: podWithoutGrace,
        containers: containers.map(({ env: _env, imagePullPolicy: _pull, ...container }) => container),
      };
    };
    expect(shape(chart)).toEqual(shape(base));
    expect(chart.spec.template.spec['terminationGracePeriodSeconds']).toBe(30);
  });

  it('serves metrics and health on the pod IP, and the metrics Service and ServiceMonitor reach the metrics port', () => {
    const objects = helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { metrics: { serviceMonitor: { enabled: true, labels: { release: 'prometheus' } } } } });
    const config = validRunConfig(objects, OPERATOR_NAMESPACE);
    expect([config.metricsBindAddress, config.healthBindAddress]).toEqual([{ host: POD_IP, port: 8080 }, { host: POD_IP, port: 8081 }]);
    const { deployment } = operatorDeployment(objects);
    const service = objects.find((object) => object.kind === 'Service') as unknown as { metadata: { name: string; labels: Record<string, string> }; spec: { selector: Record<string, string>; ports: { name: string; port: number }[] } };
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    expect(service.spec.ports).toEqual([{ name: 'metrics', port: 8080, targetPort: 'metrics' }]);
    const monitor = objects.find((object) => object.kind === 'ServiceMonitor') as unknown as { metadata: { namespace: string; labels: Record<string, string> }; spec: { selector: { matchLabels: Record<string, string> }; namespaceSelector: unknown; endpoints: unknown[] } };
    expect(monitor.metadata.namespace).toBe(OPERATOR_NAMESPACE);
    expect(monitor.metadata.labels['release']).toBe('prometheus');
    // The ServiceMonitor selects the Service by labels the Service carries.
    expect(service.metadata.labels).toEqual(expect.objectContaining(monitor.spec.selector.matchLabels));
    expect(monitor.spec.namespaceSelector).toEqual({ matchNames: [OPERATOR_NAMESPACE] });
    // Secure metrics by default: HTTPS, with Prometheus's own token.
    expect(monitor.spec.endpoints).toEqual([
      { port: 'metrics', path: '/metrics', scheme: 'https', bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token', tlsConfig: { insecureSkipVerify: true }, interval: '30s' },
    ]);
  });

  it('serves secure metrics by default, with a self-signed certificate unless given a TLS Secret, which the pod mounts', () => {
    expect(validRunConfig(helmTemplate({ namespace: OPERATOR_NAMESPACE }), OPERATOR_NAMESPACE)).toMatchObject({ metricsSecure: true, metricsCertFile: undefined, metricsKeyFile: undefined });
    const objects = helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { metrics: { tlsSecret: 'keyward-metrics-tls' } } });
    const config = validRunConfig(objects, OPERATOR_NAMESPACE);
    expect(config).toMatchObject({ metricsSecure: true, metricsCertFile: '/etc/keyward/metrics-tls/tls.crt', metricsKeyFile: '/etc/keyward/metrics-tls/tls.key' });
    const { deployment, container } = operatorDeployment(objects);
    expect(container['volumeMounts']).toContainEqual({ name: 'metrics-tls', mountPath: '/etc/keyward/metrics-tls', readOnly: true });
    expect(deployment.spec.template.spec['volumes']).toContainEqual({ name: 'metrics-tls', secret: { secretName: 'keyward-metrics-tls' } });
  });

  it('serves plain metrics with metrics.secure off, and its ServiceMonitor scrapes them so', () => {
    const objects = helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { metrics: { secure: false, tlsSecret: 'ignored', serviceMonitor: { enabled: true } } } });
    expect(validRunConfig(objects, OPERATOR_NAMESPACE)).toMatchObject({ metricsSecure: false, metricsCertFile: undefined });
    expect(operatorDeployment(objects).container['volumeMounts']).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
    const monitor = objects.find((object) => object.kind === 'ServiceMonitor') as unknown as { spec: { endpoints: unknown[] } };
    expect(monitor.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s' }]);
  });

  it('renders neither ServiceMonitor nor PrometheusRule by default', () => {
    const kinds = helmTemplate({ namespace: OPERATOR_NAMESPACE }).map((object) => object.kind);
    expect(kinds.filter((kind) => kind === 'ServiceMonitor' || kind === 'PrometheusRule')).toEqual([]);
  });

  it('gives the operator every setting of the values', () => {
    const values: Values = {
      controllers: ['keystone-appcred', 'keycloak-realm', 'keycloak-client'],
      namespaces: ['team-a', 'team-b'],
      leaderElection: { enabled: true, leaseName: 'keyward-lease' },
      keystone: { url: 'https://keystone.example:5000/v3', revokeOnDelete: true },
      apikeyEnforcement: { namespace: 'gateway' },
      keycloak: {
        url: 'https://keycloak.example',
        adminSecret: 'keycloak/admin-credentials',
        operatorNamespace: 'identity',
        adoptUnownedNamespaces: ['team-a', 'team-b/shop'],
        namespaceConcurrency: 3,
        allowedServiceAccountRoles: ['realm-management/manage-users', 'admin'],
        resyncPeriod: '5m',
        rateLimits: { namespaceRate: 7, namespaceBurst: 14, globalRate: 70, globalBurst: 140, tokenRate: 3, tokenBurst: 6 },
      },
      keystoneService: { clusterDomain: 'cluster.example' },
      kubernetesApi: { qps: 40, burst: 1_000_000 },
      concurrency: 'keystone-appcred=2,keycloak-realm=3',
      maxRetryDelay: '2m',
      shutdownTimeout: '15s',
      logging: { level: 'debug', format: 'text' },
    };
    const config = validRunConfig(helmTemplate({ namespace: 'ops', values }), 'ops');
    expect(config).toMatchObject({
      controllers: ['keystone-appcred', 'keycloak-realm', 'keycloak-client'],
      namespaces: ['team-a', 'team-b'],
      leaderElection: { enabled: true, leaseName: 'keyward-lease', leaseNamespace: 'ops' },
      keystoneUrl: 'https://keystone.example:5000/v3',
      revokeOnDelete: true,
      enforcementNamespace: 'gateway',
      keycloakUrl: 'https://keycloak.example',
      keycloakAdminSecret: { namespace: 'keycloak', name: 'admin-credentials' },
      keycloakOperatorNamespace: 'identity',
      keycloakAdoptUnowned: false,
      keycloakAdoptUnownedNamespaces: ['team-a', 'team-b/shop'],
      keycloakNamespaceConcurrency: 3,
      keycloakAllowedServiceAccountRoles: ['realm-management/manage-users', 'admin'],
      keycloakResyncPeriod: 300_000,
      keycloakAllowJsPolicies: false,
      keycloakNamespaceRate: 7,
      keycloakNamespaceBurst: 14,
      keycloakGlobalRate: 70,
      keycloakGlobalBurst: 140,
      keycloakTokenRate: 3,
      keycloakTokenBurst: 6,
      clusterDomain: 'cluster.example',
      kubeApiQps: 40,
      kubeApiBurst: 1_000_000,
      concurrency: { 'keystone-appcred': 2, 'keycloak-realm': 3, 'keycloak-client': 4 },
      maxRetryDelay: 120_000,
      shutdownTimeout: 15_000,
      log: { level: 'debug', format: 'text' },
    });
  });

  it('leaves the operator\'s defaults where the values are empty, and names the release namespace as the Keycloak operator namespace', () => {
    const defaults = validRunConfig([...baseManifests().filter((object) => object.kind !== 'Deployment'), operatorDeployment(baseManifests()).deployment], 'ops');
    const config = validRunConfig(helmTemplate({ namespace: 'ops' }), 'ops');
    expect(config).toEqual({ ...defaults, keycloakOperatorNamespace: 'ops' });
  });

  it('passes extra environment variables after its own', () => {
    const { container } = operatorDeployment(helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { extraEnv: [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=96' }] } }));
    expect(container.env.at(-1)).toEqual({ name: 'NODE_OPTIONS', value: '--max-old-space-size=96' });
  });

  it('has a schema that names exactly the values of values.yaml, which the defaults meet', () => {
    interface SchemaNode {
      readonly properties?: Readonly<Record<string, SchemaNode>>;
    }
    const schema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as SchemaNode;
    /** "path: keys" for every object of the schema with properties, beside the same for the defaults. */
    const keysOf = (node: SchemaNode, values: unknown, path: string): [string, string][] => {
      if (node.properties === undefined) return [];
      const own = values !== null && typeof values === 'object' ? Object.keys(values).sort() : [];
      return [
        [`${path}: ${Object.keys(node.properties).sort().join(', ')}`, `${path}: ${own.join(', ')}`],
        ...Object.entries(node.properties).flatMap(([key, child]) => keysOf(child, (values as Record<string, unknown> | undefined)?.[key], `${path}.${key}`)),
      ];
    };
    const pairs = keysOf(schema, chartDefaults(), 'values');
    expect(pairs.length).toBeGreaterThan(5);
    expect(pairs.map(([inSchema]) => inSchema)).toEqual(pairs.map(([, inValues]) => inValues));
    expect(chartDefaults()['controllers']).toEqual(CONTROLLER_NAMES);
  });
});

/** The alerts docs/operations.md suggests that rest on the operator's metrics: expression and duration. */
function documentedAlerts(): { expr: string; for: string | undefined }[] {
  const operations = readFileSync(join(DEPLOY_DIR, '..', 'docs', 'operations.md'), 'utf8');
  const section = operations.split('\n## Suggested alerts\n')[1]?.split('\n## ')[0];
  if (section === undefined) throw new Error('docs/operations.md has no "Suggested alerts" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('- `'))
    .map((line) => {
      const expr = /^- `([^`]+)`/.exec(line)?.[1];
      if (expr === undefined) throw new Error(`no expression in ${line}`);
      const minutes = /^- `[^`]+` for (\d+) minutes/.exec(line)?.[1];
      return { expr, for: minutes === undefined ? undefined : `${minutes}m` };
    });
}

describe('the chart\'s PrometheusRule', () => {
  const objects = helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { metrics: { prometheusRule: { enabled: true, labels: { release: 'prometheus' }, alertLabels: { severity: 'page', team: 'identity' } } } } });
  const rule = objects.find((object) => object.kind === 'PrometheusRule') as unknown as {
    metadata: { namespace: string; labels: Record<string, string> };
    spec: { groups: { name: string; rules: { alert: string; expr: string; for?: string; labels: Record<string, string>; annotations: Record<string, string> }[] }[] };
  };

  it('has the alerts docs/operations.md suggests, with their expressions and durations', () => {
    const alerts = rule.spec.groups.flatMap((group) => group.rules);
    const documented = documentedAlerts();
    expect(documented.length).toBe(5);
    expect(alerts.map((alert) => ({ expr: alert.expr, for: alert.for }))).toEqual(documented);
    expect(new Set(alerts.map((alert) => alert.alert)).size).toBe(alerts.length);
  });

  it('passes its promtool unit tests: one replica without election, every replica down, one Keystone error and many', () => {
    const defaults = helmTemplate({ namespace: OPERATOR_NAMESPACE, values: { metrics: { prometheusRule: { enabled: true } } } });
    const { spec } = defaults.find((object) => object.kind === 'PrometheusRule') as unknown as { spec: { groups: unknown } };
    const outcome = promtoolTestRules(spec.groups, fileURLToPath(new URL('alerts.promtool.yaml', import.meta.url)));
    expect({ status: outcome.status, stderr: outcome.stderr }).toEqual({ status: 0, stderr: '' });
    expect(outcome.stdout).toContain('SUCCESS');
  });

  it('has no syntax or semantic errors by promtool check rules', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keyward-rules-'));
    try {
      writeFileSync(join(dir, 'rules.yaml'), JSON.stringify({ groups: rule.spec.groups }));
      const outcome = runPromtool(['check', 'rules', join(dir, 'rules.yaml')]);
      expect({ status: outcome.status, stderr: outcome.stderr }).toEqual({ status: 0, stderr: '' });
      expect(outcome.stdout).toContain(`SUCCESS: ${String(rule.spec.groups.flatMap((group) => group.rules).length)} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('labels every alert and the rule as the values say, and gives each a summary', () => {
    expect(rule.metadata.labels['release']).toBe('prometheus');
    expect(rule.metadata.namespace).toBe(OPERATOR_NAMESPACE);
    for (const alert of rule.spec.groups.flatMap((group) => group.rules)) {
      expect([alert.alert, alert.labels]).toEqual([alert.alert, { severity: 'page', team: 'identity' }]);
      expect(alert.annotations['summary']).toEqual(expect.any(String));
    }
  });
});

describe('the chart\'s release name', () => {
  it('labels the objects it owns with the release', () => {
    const objects = helmTemplate({ namespace: OPERATOR_NAMESPACE });
    for (const object of objects.filter((candidate) => !isRbac(candidate))) {
      expect([describeManifest(object), object.metadata.labels?.['app.kubernetes.io/instance']]).toEqual([describeManifest(object), RELEASE]);
    }
  });
});
