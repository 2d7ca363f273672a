import { describe, expect, it } from '@jest/globals';
import { ApiException, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { adminKubeConfig, createTestNamespace } from '@keyward/test-env';

const widgets = { group: 'smoke.keyward.dev', version: 'v1', plural: 'widgets' } as const;

function widget(name: string, size: number, limit: number): object {
  return { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name }, spec: { size, limit } };
}

describe('a CRD with a status subresource and a CEL rule on the real API server', () => {
  it('accepts a valid object and updates its status through the subresource', async () => {
    const api = adminKubeConfig().makeApiClient(CustomObjectsApi);
    const namespace = await createTestNamespace('smoke-crd');
    await api.createNamespacedCustomObject({ ...widgets, namespace, body: widget('ok', 1, 2) });

    await api.patchNamespacedCustomObjectStatus(
      { ...widgets, namespace, name: 'ok', body: { status: { phase: 'Ready' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const read = (await api.getNamespacedCustomObject({ ...widgets, namespace, name: 'ok' })) as { status?: { phase?: string } };
    expect(read.status?.phase).toBe('Ready');
  });

  it('rejects an object that breaks the CEL rule, with the rule message', async () => {
    const api = adminKubeConfig().makeApiClient(CustomObjectsApi);
    const namespace = await createTestNamespace('smoke-crd');
    const rejection = api.createNamespacedCustomObject({ ...widgets, namespace, body: widget('bad', 3, 2) });
    await expect(rejection).rejects.toBeInstanceOf(ApiException);
    const error = (await rejection.catch((e: unknown) => e)) as ApiException<string>;
    expect(error.code).toBe(422);
    expect(error.body).toContain('size must be smaller than limit');
  });
});
