import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CoreV1Api } from '@kubernetes/client-node';
import { KubeClient } from '@keyward/runtime/io';
import { RuntimeMetrics, serveEndpoints, type Endpoints } from '@keyward/runtime/controller';
import { adminKubeConfig, createTestNamespace, kubeConfigFor, rememberSecret, waitFor } from '@keyward/test-env';
import { parseRunConfig } from '../src/config.js';
import { metricsSecurity } from '../src/metrics-security.js';
import { metricsReaderRole, type RbacInstall } from '../src/rbac-manifests.js';
import { generatedIdentity } from './deployed-identity.js';
import { scrape } from './in-cluster.js';

/** A GET of /metrics over HTTPS (the certificate is self-signed: not verified), with a bearer token or none. */
const scrapeLocal = (port: number, token: string | undefined): Promise<{ readonly status: number; readonly body: string }> => scrape(`https://127.0.0.1:${String(port)}/metrics`, token);

describe('the secure metrics server against a real API server', () => {
  const admin = new KubeClient(adminKubeConfig());
  const core = adminKubeConfig().makeApiClient(CoreV1Api);
  let operator: KubeClient | undefined;
  let endpoints: Endpoints | undefined;
  let namespace = '';
  const tokens: Record<'reader' | 'stranger', string> = { reader: '', stranger: '' };

  /** A token of a ServiceAccount of the test namespace, from the TokenRequest API. */
  const tokenOf = async (name: string): Promise<string> => {
    await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } });
    const request = await core.createNamespacedServiceAccountToken({ namespace, name, body: { spec: { audiences: [], expirationSeconds: 3600 } } });
    return rememberSecret(request.status?.token ?? '');
  };

  beforeAll(async () => {
    namespace = await createTestNamespace('metrics-auth');
    // The operator's ServiceAccount with exactly the roles `keyward rbac` prints for a namespaced install (the
    // reviews are in its one ClusterRole), and the metrics reader's ClusterRole bound to a scraper.
    const install: RbacInstall = { controllers: ['keystone-appcred'], namespaces: [namespace], operatorNamespace: namespace, serviceAccount: 'keyward' };
    const identity = await generatedIdentity(admin, install);
    operator = new KubeClient(kubeConfigFor({ kubeconfig: identity.kubeconfig }));
    tokens.reader = await tokenOf('prometheus');
    tokens.stranger = await tokenOf('stranger');
    const reader = metricsReaderRole(install).metadata.name;
    await admin.apply(
      { type: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false }, namespace: undefined, name: `${reader}-prometheus` },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: `${reader}-prometheus` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: reader },
        subjects: [{ kind: 'ServiceAccount', name: 'prometheus', namespace }],
      },
    );

    // The operator's own wiring: `keyward run`'s defaults (secure) on a loopback port, reviews asked as the operator.
    const config = parseRunConfig(['--metrics-bind-address', '127.0.0.1:0'], {});
    if (!config.ok) throw new Error(config.error);
    const security = metricsSecurity(config.config, operator);
    if (security === undefined) throw new Error('metrics should be secure by default');
    const metrics = new RuntimeMetrics();
    metrics.leader.set(1);
    endpoints = await serveEndpoints({ address: '127.0.0.1:0', registry: metrics.registry, tls: security.tls, metricsAccess: security.access });
  });

  afterAll(async () => {
    await endpoints?.close();
    operator?.close();
    admin.close();
  });

  it('serves the metrics to a ServiceAccount bound to keyward-metrics-reader', async () => {
    const port = endpoints?.port ?? 0;
    // The authorizer learns of a new binding a moment after it is written (a refusal is kept 10 s).
    const answer = await waitFor(async () => {
      const scraped = await scrapeLocal(port, tokens.reader);
      return scraped.status === 200 ? scraped : undefined;
    }, { what: 'the reader to be let in', timeoutMs: 60_000, intervalMs: 1_000 });
    expect(answer.body).toContain('keyward_leader 1');
  });

  it('refuses a valid token whose ServiceAccount may not get /metrics with 403', async () => {
    await expect(scrapeLocal(endpoints?.port ?? 0, tokens.stranger)).resolves.toEqual({ status: 403, body: `system:serviceaccount:${namespace}:stranger may not get /metrics\n` });
  });

  it('refuses a request without a token, or with one the API server does not know, with 401', async () => {
    await expect(scrapeLocal(endpoints?.port ?? 0, undefined)).resolves.toEqual({ status: 401, body: 'a bearer token is required\n' });
    await expect(scrapeLocal(endpoints?.port ?? 0, 'not-a-token')).resolves.toEqual({ status: 401, body: 'the token is not valid\n' });
  });
});
