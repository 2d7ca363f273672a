import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { EXIT_CODES, runCli, type CliDependencies } from '../src/cli.js';
import { parsePlanConfig, parseRunConfig, type OperatorConfig, type PlanConfig } from '../src/config.js';
import { groupedCommanderOptions, optionsTable, type OptionSpec } from '../src/option-spec.js';
import { moduleOptions, planOptions, rbacOptions, runOptions } from '../src/options.js';
import { rbacManifests, type RbacObject, type RoleObject } from '../src/rbac-manifests.js';
import { operatorVersion } from '../src/version.js';

interface Outcome {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly runs: OperatorConfig[];
  readonly plans: PlanConfig[];
}

/** Runs the CLI in-process with recording stand-ins for the run and plan commands. */
async function cli(argv: readonly string[], overrides: Partial<CliDependencies> = {}): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const runs: OperatorConfig[] = [];
  const plans: PlanConfig[] = [];
  const status = await runCli(argv, {
    env: {},
    facts: {},
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    runOperator: (config) => {
      runs.push(config);
      return Promise.resolve();
    },
    planCommand: (config) => {
      plans.push(config);
      return Promise.resolve(EXIT_CODES.ok);
    },
    ...overrides,
  });
  return { status, stdout, stderr, runs, plans };
}

const squash = (text: string): string => text.replace(/\s+/g, ' ');

describe('keyward run', () => {
  it('runs the operator with the configuration of its flags and environment', async () => {
    const env = { KEYWARD_CONCURRENCY: '3', KEYWARD_LOG_LEVEL: 'debug' };
    const outcome = await cli(['run', '--controllers', 'keystone-appcred', '--log-level', 'warn'], { env, facts: { serviceAccountNamespace: 'ops' } });
    const expected = parseRunConfig(['--controllers', 'keystone-appcred', '--log-level', 'warn'], env, { serviceAccountNamespace: 'ops' });
    expect(expected.ok).toBe(true);
    expect(outcome).toEqual({ status: 0, stdout: '', stderr: '', runs: [expected.ok ? expected.config : undefined], plans: [] });
  });

  it('exits 2 with one line naming the option and a pointer to the help on invalid configuration', async () => {
    const outcome = await cli(['run'], { env: { KEYWARD_CONCURRENCY: '0' } });
    expect(outcome.status).toBe(EXIT_CODES.usage);
    expect(outcome.stderr).toBe('error: invalid --concurrency (KEYWARD_CONCURRENCY): "0" is not an integer >= 1\nrun \'keyward run --help\' for usage\n');
    expect(outcome.runs).toEqual([]);
  });

  it('exits 2 on an unknown option, on one line', async () => {
    const outcome = await cli(['run', '--namespace', 'a']);
    expect(outcome.status).toBe(EXIT_CODES.usage);
    expect(outcome.stderr).toBe("error: unknown option '--namespace' (Did you mean --namespaces?)\nrun 'keyward run --help' for usage\n");
  });

  it('exits 1 with the message when the operator fails', async () => {
    const outcome = await cli(['run'], { runOperator: () => Promise.reject(new Error('cannot reach the API server')) });
    expect(outcome.status).toBe(EXIT_CODES.failure);
    expect(outcome.stderr).toBe('keyward: cannot reach the API server\n');
  });

  it('documents every option with its variable and default in --help', async () => {
    const outcome = await cli(['run', '--help']);
    expect(outcome.status).toBe(0);
    expect(outcome.runs).toEqual([]);
    for (const spec of Object.values(runOptions)) {
      expect(squash(outcome.stdout)).toContain(squash(`${spec.flags} ${spec.description} (env: ${spec.env}, default: ${spec.defaultText})`));
    }
  });
});

/** The options of a help text by heading, in print order: each heading with the flags listed under it. */
function helpGroups(help: string): [string, string[]][] {
  const groups: [string, string[]][] = [];
  for (const line of help.split('\n')) {
    if (/^\S.*:$/.test(line) && !line.startsWith('Usage:')) groups.push([line.slice(0, -1), []]);
    const term = /^ {2}(-[^ ]*(?:, --[^ ]+)?(?: <[^>]+>)?)(?: {2,}|$)/.exec(line)?.[1];
    if (term !== undefined) groups.at(-1)?.[1].push(term);
  }
  return groups;
}

describe('keyward run --help', () => {
  it('lists the options in groups: general, metrics and health, then each controller\'s in the order of --controllers', async () => {
    const groups = helpGroups((await cli(['run', '--help'])).stdout);
    expect(groups.map(([heading]) => heading)).toEqual([
      'General',
      'Metrics and health',
      'keystone-appcred controller',
      'apikey-enforcement controller',
      'keycloak-realm and keycloak-client controllers',
      'keystone-service controller',
    ]);
    const under = (heading: string): string[] => groups.find(([name]) => name === heading)?.[1] ?? [];
    expect(under('General')).toEqual(expect.arrayContaining(['--kubeconfig <path>', '--namespaces <list>', '--leader-elect', '--no-leader-elect', '--log-level <level>', '-h, --help']));
    expect(under('Metrics and health')).toEqual([
      '--metrics-bind-address <address>',
      '--metrics-secure',
      '--no-metrics-secure',
      '--metrics-cert-file <path>',
      '--metrics-key-file <path>',
      '--health-bind-address <address>',
    ]);
    expect(under('apikey-enforcement controller')).toEqual(['--enforcement-namespace <namespace>']);
    // The rate limits the operator sets for Keycloak sit with the options of the controllers that use it.
    expect(under('keycloak-realm and keycloak-client controllers')).toEqual(expect.arrayContaining(['--keycloak-url <url>', '--keycloak-token-rate <per-second>', '--keycloak-allow-js-policies']));
  });

  it('lists every option, and its negation, in exactly one group', async () => {
    const listed = helpGroups((await cli(['run', '--help'])).stdout).flatMap(([, flags]) => flags);
    const specs: readonly OptionSpec<unknown>[] = [...Object.values(runOptions), ...Object.values(moduleOptions)];
    const expected = specs.flatMap((spec) => [spec.flags, ...(spec.negation === undefined ? [] : [spec.negation.flags])]);
    expect([...listed].sort()).toEqual([...expected, '-h, --help'].sort());
  });

  it('refuses an option without a group, or with one the command does not print', () => {
    const spec = { ...runOptions.namespaces, group: 'Elsewhere' };
    expect(() => groupedCommanderOptions([spec], ['General'])).toThrow('option --namespaces has no help group among General');
    const { group: _none, ...ungrouped } = runOptions.namespaces;
    expect(() => groupedCommanderOptions([ungrouped], ['General'])).toThrow('option --namespaces has no help group among General');
  });
});

describe('keyward plan', () => {
  it('passes its configuration and exits with the plan\'s status', async () => {
    const recorded: PlanConfig[] = [];
    const planCommand = (config: PlanConfig): Promise<number> => {
      recorded.push(config);
      return Promise.resolve(EXIT_CODES.changes);
    };
    expect((await cli(['plan', '--controllers', 'apikey-enforcement', '--exit-code'], { planCommand })).status).toBe(EXIT_CODES.changes);
    const expected = parsePlanConfig(['--controllers', 'apikey-enforcement', '--exit-code'], {});
    expect(expected.ok && expected.config.controllers).toEqual(['apikey-enforcement']);
    expect(recorded).toEqual([expected.ok ? expected.config : undefined]);
  });

  it('configures the controllers as run does: the same module options from the same flags and variables', async () => {
    const env = { KEYWARD_REVOKE_ON_DELETE: 'true', KEYWARD_KEYSTONE_URL: 'http://keystone:5000/v3', KEYWARD_KEYCLOAK_ADMIN_SECRET: 'keycloak/admin' };
    const argv = ['--enforcement-namespace', 'gateway', '--keycloak-url', 'http://keycloak:8080', '--keystone-cluster-domain', 'cluster.example'];
    const { runs: [run] } = await cli(['run', ...argv], { env });
    const { plans: [plan] } = await cli(['plan', ...argv], { env });
    const settings = (config: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> =>
      Object.fromEntries(Object.keys(moduleOptions).map((key) => [key, config?.[key]]));
    expect(settings(plan)).toEqual({
      keystoneUrl: 'http://keystone:5000/v3',
      revokeOnDelete: true,
      enforcementNamespace: 'gateway',
      keycloakUrl: 'http://keycloak:8080',
      keycloakAdminSecret: { namespace: 'keycloak', name: 'admin' },
      keycloakOperatorNamespace: 'keyward-system',
      keycloakAdoptUnowned: false,
      keycloakAdoptUnownedNamespaces: [],
      keycloakAllowedServiceAccountRoles: [],
      keycloakNamespaceConcurrency: 2,
      keycloakResyncPeriod: 600_000,
      keycloakAllowJsPolicies: false,
      clusterDomain: 'cluster.example',
    });
    expect(settings(plan)).toEqual(settings(run));
  });

  it('has no --kind: --controllers selects what is planned', async () => {
    const outcome = await cli(['plan', '--kind', 'apikey']);
    expect(outcome).toMatchObject({ status: EXIT_CODES.usage, stderr: "error: unknown option '--kind'\nrun 'keyward plan --help' for usage\n", plans: [] });
  });

  it('exits 2 on an invalid value', async () => {
    const outcome = await cli(['plan', '-o', 'xml']);
    expect(outcome).toMatchObject({ status: EXIT_CODES.usage, stderr: 'error: invalid --output: "xml" is not one of text, json, yaml\nrun \'keyward plan --help\' for usage\n', plans: [] });
  });

  it('documents its options in --help', async () => {
    const outcome = await cli(['plan', '--help']);
    for (const spec of Object.values(planOptions)) expect(squash(outcome.stdout)).toContain(squash(`${spec.flags} ${spec.description}`));
  });
});

describe('the controllers\' options', () => {
  it.each(['run', 'plan', 'rbac'])('are documented in keyward %s --help with their variables and defaults', async (command) => {
    const outcome = await cli([command, '--help']);
    expect(outcome.status).toBe(0);
    expect(Object.keys(moduleOptions).sort()).toEqual([
      'clusterDomain',
      'enforcementNamespace',
      'keycloakAdminSecret',
      'keycloakAdoptUnowned',
      'keycloakAdoptUnownedNamespaces',
      'keycloakAllowJsPolicies',
      'keycloakAllowedServiceAccountRoles',
      'keycloakNamespaceConcurrency',
      'keycloakOperatorNamespace',
      'keycloakResyncPeriod',
      'keycloakUrl',
      'keystoneUrl',
      'revokeOnDelete',
    ]);
    for (const spec of Object.values(moduleOptions)) {
      expect(squash(outcome.stdout)).toContain(squash(`${spec.flags} ${spec.description} (env: ${String(spec.env)}, default: ${spec.defaultText})`));
      if (spec.negation !== undefined) expect(squash(outcome.stdout)).toContain(squash(`${spec.negation.flags} ${spec.negation.description}`));
    }
  });
});

describe('keyward crds', () => {
  it('prints the operator\'s CRDs, the same as deploy/crds, and not the KeystoneAPI stand-in', async () => {
    const outcome = await cli(['crds']);
    expect(outcome.status).toBe(0);
    const documents = parseAllDocuments(outcome.stdout).map((document) => document.toJS() as { metadata: { name: string } });
    expect(documents.map((crd) => crd.metadata.name)).toEqual([
      'keystoneapplicationcredentials.keystone.openstack.org',
      'apikeys.devportal.kuadrant.io',
      'keycloakrealms.vriesdemichael.github.io',
      'keycloakclients.vriesdemichael.github.io',
      'keystones.keystone.openstack.c5c3.io',
    ]);
    for (const crd of documents) {
      expect(crd).toEqual(parse(readFileSync(new URL(`../../../deploy/crds/${crd.metadata.name}.yaml`, import.meta.url), 'utf8')));
    }
  });
});

describe('keyward crds --controllers', () => {
  const names = async (argv: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<string[]> => {
    const outcome = await cli(['crds', ...argv], { env });
    expect(outcome.status).toBe(0);
    return parseAllDocuments(outcome.stdout).map((document) => (document.toJS() as { metadata: { name: string } }).metadata.name);
  };

  it('prints only the CRDs of the controllers named, by flag or environment variable', async () => {
    expect(await names(['--controllers', 'keycloak-client'])).toEqual(['keycloakclients.vriesdemichael.github.io']);
    expect(await names(['--controllers', 'keystone-appcred,apikey-enforcement'])).toEqual(['keystoneapplicationcredentials.keystone.openstack.org', 'apikeys.devportal.kuadrant.io']);
    expect(await names([], { KEYWARD_CONTROLLERS: 'keystone-service' })).toEqual(['keystones.keystone.openstack.c5c3.io']);
  });

  it('refuses a controller it does not know, naming it, and prints nothing', async () => {
    const outcome = await cli(['crds', '--controllers', 'keycloak-realms']);
    expect(outcome.status).toBe(EXIT_CODES.usage);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('keycloak-realms');
  });
});

describe('keyward rbac', () => {
  const install = { controllers: ['keystone-appcred', 'apikey-enforcement', 'keycloak-realm', 'keycloak-client', 'keystone-service'], namespaces: 'all', operatorNamespace: 'keyward-system', enforcementNamespace: 'kuadrant', serviceAccount: 'keyward' } as const;
  const printed = async (argv: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<unknown[]> => {
    const outcome = await cli(['rbac', ...argv], { env });
    expect({ status: outcome.status, stderr: outcome.stderr }).toEqual({ status: 0, stderr: '' });
    return parseAllDocuments(outcome.stdout).map((document) => document.toJS() as unknown);
  };

  it('prints the roles of the cluster-wide install by default', async () => {
    expect(await printed([])).toEqual(rbacManifests(install));
  });

  it('prints the roles of the install its options describe, from flags and environment', async () => {
    const argv = ['--namespaces', 'a,b', '--controllers', 'apikey-enforcement', '--operator-namespace', 'ops', '--service-account', 'op'];
    expect(await printed(argv, { KEYWARD_ENFORCEMENT_NAMESPACE: 'gateway' })).toEqual(
      rbacManifests({ controllers: ['apikey-enforcement'], namespaces: ['a', 'b'], operatorNamespace: 'ops', enforcementNamespace: 'gateway', serviceAccount: 'op' }),
    );
  });

  it('places the apikey enforcement Role in --enforcement-namespace, and no Role in the default one', async () => {
    const roles = (objects: readonly unknown[]): Record<string, unknown> =>
      Object.fromEntries(
        (objects as RbacObject[]).filter((object): object is RoleObject => object.kind === 'Role').map((role) => [`${role.metadata.namespace ?? ''}/${role.metadata.name}`, role.rules]),
      );
    const enforcementRules = [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'delete'] }];
    // The Keycloak controllers read their admin Secret in the operator's namespace, whatever the enforcement namespace.
    const adminSecretRules = [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }];
    expect(roles(await printed(['--enforcement-namespace', 'gateway']))).toEqual({
      'keyward-system/keyward-runtime': [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'create', 'update', 'delete'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'patch'] },
      ],
      'gateway/keyward-apikey-enforcement': enforcementRules,
      'keyward-system/keyward-keycloak-realm': adminSecretRules,
      'keyward-system/keyward-keycloak-client': adminSecretRules,
    });
    expect(roles(await printed([]))).toMatchObject({ 'kuadrant/keyward-apikey-enforcement': enforcementRules });
    // The flag wins over the variable, as for run.
    expect(Object.keys(roles(await printed(['--enforcement-namespace', 'gateway'], { KEYWARD_ENFORCEMENT_NAMESPACE: 'authorino' })))).toEqual([
      'keyward-system/keyward-runtime',
      'gateway/keyward-apikey-enforcement',
      'keyward-system/keyward-keycloak-realm',
      'keyward-system/keyward-keycloak-client',
    ]);
    // Without the apikey controller, no Role names the enforcement namespace.
    expect(Object.keys(roles(await printed(['--controllers', 'keystone-appcred', '--enforcement-namespace', 'gateway'])))).toEqual(['keyward-system/keyward-runtime']);
  });

  it('exits with a usage error on an invalid namespace', async () => {
    const outcome = await cli(['rbac', '--operator-namespace', 'Not_A_Name']);
    expect({ status: outcome.status, stdout: outcome.stdout }).toEqual({ status: EXIT_CODES.usage, stdout: '' });
    expect(outcome.stderr).toMatch(/^error: invalid --operator-namespace: "Not_A_Name" /);
  });
});

describe('keyward', () => {
  it('prints its version', async () => {
    expect(await cli(['version'])).toMatchObject({ status: 0, stdout: `keyward ${operatorVersion()}\n` });
    expect(await cli(['--version'])).toMatchObject({ status: 0, stdout: `keyward ${operatorVersion()}\n` });
    expect(await cli(['-v'])).toMatchObject({ status: 0, stdout: `keyward ${operatorVersion()}\n` });
  });

  it('exits 2 on an unknown command, pointing at the help', async () => {
    expect(await cli(['apply'])).toMatchObject({ status: EXIT_CODES.usage, stdout: '', stderr: "error: unknown command 'apply'\nrun 'keyward --help' for usage\n" });
  });

  it('shows the commands on --help and exits 2 without a command', async () => {
    const help = await cli(['--help']);
    expect(help.status).toBe(0);
    for (const command of ['run', 'plan', 'crds', 'rbac', 'version']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const bare = await cli([]);
    expect(bare.status).toBe(EXIT_CODES.usage);
    expect(bare.stderr).toBe(help.stdout);
  });
});

describe('keyward run and plan with an unusable kubeconfig', () => {
  it('exit with status 1 and one line naming the file and the problem, instead of retrying for ever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keyward-cli-'));
    const path = join(dir, 'plain-http');
    writeFileSync(path, [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{ name: c1, cluster: { server: "http://localhost:8080" } }]',
      'users: [{ name: u1, user: { token: not-printed } }]',
      'contexts: [{ name: ctx, context: { cluster: c1, user: u1 } }]',
      'current-context: ctx',
      '',
    ].join('\n'));
    try {
      for (const argv of [['plan'], ['run', '--no-leader-elect', '--metrics-bind-address', '0', '--health-bind-address', '0']]) {
        let stderr = '';
        let stdout = '';
        const status = await runCli([...argv, '--kubeconfig', path], { env: {}, facts: {}, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
        expect({ command: argv[0], status, stdout, stderr }).toEqual({
          command: argv[0],
          status: EXIT_CODES.failure,
          stdout: '',
          stderr: `keyward: kubeconfig ${path}: the server of cluster "c1" is plain HTTP (http://localhost:8080), which the Kubernetes client refuses unless insecure-skip-tls-verify is true; use its https:// address\n`,
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs/operations.md', () => {
  const docs = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');

  it.each([
    ['run', runOptions],
    ['plan', planOptions],
    ['rbac', rbacOptions],
  ] as const)('has the %s options table generated from the option specs and the controllers\' options', (command, specs) => {
    const table = new RegExp(`<!-- options:${command}:[^\\n]*-->\\n([\\s\\S]*?)\\n<!-- /options:${command} -->`).exec(docs)?.[1];
    // In the order of --help: the command's own options, then the controllers'.
    expect(table).toBe(optionsTable({ ...specs, ...moduleOptions }));
  });
});
