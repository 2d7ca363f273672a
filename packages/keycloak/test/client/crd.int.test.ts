import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';
import { KeywardError, KubeClient } from '@keyward/core/interpreter';
import type { KubeObject, ResourceType } from '@keyward/core';
import { keycloakClientType } from '../../src/types.js';
import { keycloakClientCrd } from '../../src/client/crd.js';
import { decodeKeycloakClient } from '../../src/client/decode.js';

const crdType: ResourceType = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false };

let kube: KubeClient;
let namespace: string;

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  // Applied as raw JSON: a typed client model would drop the CEL rules.
  await kube.apply({ type: crdType, name: keycloakClientCrd.metadata.name }, keycloakClientCrd, true);
  await waitFor(
    async () => {
      const crd = await kube.get({ type: crdType, name: keycloakClientCrd.metadata.name });
      const conditions = ((crd?.['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions) ?? [];
      return conditions.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    },
    { what: 'the KeycloakClient CRD to be established', timeoutMs: 30_000 },
  );
  namespace = await createTestNamespace('kcc-crd');
});

afterAll(() => {
  kube.close();
});

const base = { clientId: 'shop', realmRef: { name: 'shared' } };

const cases: [string, Record<string, unknown> | undefined, string | undefined][] = [
  ['the least spec', base, undefined],
  ['regenerateSecret as a token', { ...base, regenerateSecret: 'rotate-1' }, undefined],
  ['regenerateSecret as the old boolean', { ...base, regenerateSecret: true }, undefined],
  
  ['public and bearer-only', { ...base, publicClient: true, bearerOnly: true }, 'spec.bearerOnly'],
  
  ['a public client regenerating by false', { ...base, publicClient: true, regenerateSecret: false }, undefined],
];

describe('the KeycloakClient CRD and the codec agree', () => {
  it.each(cases)('on %s', async (what, spec, field) => {
    const name = `kcc-${String(cases.findIndex(([n]) => n === what))}`;
    const body = { apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name, namespace }, ...(spec === undefined ? {} : { spec }) };
    const server = await kube.create({ type: keycloakClientType, namespace, name }, body).then(
      (created) => ({ accepted: true as const, created }),
      (error: unknown) => ({ accepted: false as const, error }),
    );
    const decoded = decodeKeycloakClient({ ...body, metadata: { ...body.metadata, uid: 'u', generation: 1 } } as KubeObject);
    if (field === undefined) {
      expect(server).toMatchObject({ accepted: true });
      expect(isLeft(decoded)).toBe(false);
      return;
    }
    expect(server.accepted).toBe(false);
    const error = server.accepted ? undefined : server.error;
    expect(error).toBeInstanceOf(KeywardError);
    expect((error as KeywardError).message).toContain(`${field}:`);
    expect(isLeft(decoded) ? decoded.left.message : '').toContain(`${field}:`);
  });
});
