import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { adminKubeConfig, createTestNamespace, testEnvironment } from '@keyward/test-env';
import { CHART_DIR, runHelm, runHelmWithValues, type HelmOutcome, type Values } from './helm-chart.js';

/** `helm install` and `helm uninstall` of the chart into the test cluster, as a platform team runs them. */
const kubeconfig = (): string[] => ['--kubeconfig', testEnvironment().kubeconfig];
const install = (release: string, namespace: string, values: Values): HelmOutcome => runHelmWithValues(['install', release, CHART_DIR, '--namespace', namespace, ...kubeconfig()], values);
const releasesIn = (namespace: string): string[] =>
  runHelm(['list', '--all', '--short', '--namespace', namespace, ...kubeconfig()]).stdout.split('\n').filter((line) => line !== '');

describe('helm install of deploy/helm/keyward into a real API server', () => {
  const core = adminKubeConfig().makeApiClient(CoreV1Api);
  const rbac = adminKubeConfig().makeApiClient(RbacAuthorizationV1Api);
  let namespace = '';
  let watched = '';
  // A namespace that does not exist yet: the enforcement namespace Kuadrant's install would make.
  const enforcement = `helm-kuadrant-${randomBytes(3).toString('hex')}`;
  const installed: string[] = [];

  beforeAll(async () => {
    namespace = await createTestNamespace('helm-install');
    watched = await createTestNamespace('helm-install-team');
  });

  afterAll(() => {
    for (const release of installed) runHelm(['uninstall', release, '--namespace', namespace, ...kubeconfig()]);
  });

  // A namespaced install, so the test leaves the cluster-wide roles of other tests alone.
  const values = (): Values => ({ controllers: ['keystone-appcred', 'apikey-enforcement'], namespaces: [watched], apikeyEnforcement: { namespace: enforcement } });

  it('stops before creating anything, naming the value, when the enforcement namespace does not exist', async () => {
    const outcome = install('keyward-early', namespace, values());
    expect(outcome.status).not.toBe(0);
    expect(outcome.stderr).toContain(`the chart puts Roles in namespaces that do not exist: ${enforcement} (apikeyEnforcement.namespace)`);
    // No failed release is left behind, and nothing of the chart's is in the cluster.
    expect(releasesIn(namespace)).toEqual([]);
    expect((await core.listNamespacedServiceAccount({ namespace, labelSelector: 'app.kubernetes.io/name=keyward' })).items).toEqual([]);
    expect((await rbac.listNamespacedRole({ namespace: watched, labelSelector: 'app.kubernetes.io/name=keyward' })).items).toEqual([]);
  });

  it('names every missing namespace with the value that names it', () => {
    const missingTeam = `helm-missing-${randomBytes(3).toString('hex')}`;
    const outcome = install('keyward-early', namespace, { ...values(), namespaces: [watched, missingTeam] });
    expect(outcome.status).not.toBe(0);
    expect(outcome.stderr).toContain(`namespaces that do not exist: ${missingTeam} (namespaces), ${enforcement} (apikeyEnforcement.namespace)`);
  });

  it('installs, with the enforcement Role in place, once the namespace exists', async () => {
    await core.createNamespace({ body: { metadata: { name: enforcement } } });
    installed.push('keyward');
    const outcome = install('keyward', namespace, values());
    // Helm's client-go may log an informational line (klog "I...") when a watch it no longer needs ends as the
    // install completes; anything else on stderr is a problem.
    const problems = outcome.stderr.split('\n').filter((line) => line !== '' && !/^I\d{4} [\d:.]+ +\d+ reflector\.go:\d+\] /.test(line));
    expect({ status: outcome.status, problems }).toEqual({ status: 0, problems: [] });
    expect(runHelm(['status', 'keyward', '--namespace', namespace, '--output', 'json', ...kubeconfig()]).stdout).toContain('"status":"deployed"');
    const roles = await rbac.listNamespacedRole({ namespace: enforcement, labelSelector: 'app.kubernetes.io/name=keyward' });
    expect(roles.items.map((role) => role.metadata?.name)).toEqual(['keyward-apikey-enforcement']);
  });
});
