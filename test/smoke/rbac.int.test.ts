import { beforeAll, describe, expect, it } from '@jest/globals';
import { ApiException, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { adminKubeConfig, createTestNamespace, kubeConfigFor, serviceAccountIdentity } from '@keyward/test-env';

/** Runs a request and reports the HTTP status it ended with (200 for success). */
async function statusOf(request: () => Promise<unknown>): Promise<number> {
  try {
    await request();
    return 200;
  } catch (error) {
    if (error instanceof ApiException) return error.code;
    throw error;
  }
}

async function serviceAccountApi(namespace: string, name: string): Promise<CoreV1Api> {
  const identity = await serviceAccountIdentity(namespace, name);
  return kubeConfigFor({ kubeconfig: identity.kubeconfig }).makeApiClient(CoreV1Api);
}

describe('RBAC on the real API server', () => {
  let namespace = '';
  let otherNamespace = '';

  beforeAll(async () => {
    namespace = await createTestNamespace('smoke-rbac');
    otherNamespace = await createTestNamespace('smoke-rbac-other');
    const core = adminKubeConfig().makeApiClient(CoreV1Api);
    await core.createNamespacedSecret({ namespace, body: { metadata: { name: 'existing' }, stringData: { k: 'v' } } });
    const rbac = adminKubeConfig().makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace,
      body: { metadata: { name: 'secret-reader' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }] },
    });
    await rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name: 'reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'secret-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace }],
      },
    });
  });

  it('forbids a user without bindings everything', async () => {
    const api = await serviceAccountApi(namespace, 'nobody');
    expect(await statusOf(() => api.readNamespacedSecret({ namespace, name: 'existing' }))).toBe(403);
    expect(await statusOf(() => api.listNamespacedSecret({ namespace }))).toBe(403);
  });

  it('allows a bound user exactly what the Role grants', async () => {
    const api = await serviceAccountApi(namespace, 'reader');
    const matrix = {
      'get secret': await statusOf(() => api.readNamespacedSecret({ namespace, name: 'existing' })),
      'list secrets': await statusOf(() => api.listNamespacedSecret({ namespace })),
      'create secret': await statusOf(() => api.createNamespacedSecret({ namespace, body: { metadata: { name: 'new' } } })),
      'delete secret': await statusOf(() => api.deleteNamespacedSecret({ namespace, name: 'existing' })),
      'list configmaps': await statusOf(() => api.listNamespacedConfigMap({ namespace })),
      'list secrets elsewhere': await statusOf(() => api.listNamespacedSecret({ namespace: otherNamespace })),
      'list secrets cluster-wide': await statusOf(() => api.listSecretForAllNamespaces()),
    };
    expect(matrix).toEqual({
      'get secret': 200,
      'list secrets': 200,
      'create secret': 403,
      'delete secret': 403,
      'list configmaps': 403,
      'list secrets elsewhere': 403,
      'list secrets cluster-wide': 403,
    });
  });
});
