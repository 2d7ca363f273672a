import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace } from '@keyward/test-env';
import { KeywardError, KubeClient } from '@keyward/core/interpreter';
import { appCredType } from '../src/api.js';
import { decodeAppCred } from '../src/decode.js';
import { baseSpec } from './harness.js';

let client: KubeClient;
let namespace: string;

beforeAll(async () => {
  client = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('appcred-crd');
});

afterAll(() => {
  client.close();
});

/** [description, spec, field the rejection must name (undefined: valid)] */
const cases: [string, Record<string, unknown>, string | undefined][] = [
  ['a full spec', { ...baseSpec, accessRules: [{ service: 'compute', path: '/servers', method: 'GET' }] }, undefined],
  ['defaults left out', { secret: 's', passwordSelector: 'p', userName: 'u', roles: ['service'] }, undefined],
  ['gracePeriodDays equal to expirationDays', { ...baseSpec, expirationDays: 10, gracePeriodDays: 10 }, 'gracePeriodDays must be smaller than expirationDays'],
  ['a default grace period longer than a short expiry', { ...baseSpec, expirationDays: 30, gracePeriodDays: undefined }, 'gracePeriodDays must be smaller than expirationDays'],
  ['expirationDays below 2', { ...baseSpec, expirationDays: 1, gracePeriodDays: 1 }, 'expirationDays'],
  ['gracePeriodDays below 1', { ...baseSpec, gracePeriodDays: 0 }, 'gracePeriodDays'],
  ['no roles', { ...baseSpec, roles: [] }, 'roles'],
  ['no userName', { ...baseSpec, userName: undefined }, 'userName'],
  ['an empty secret name', { ...baseSpec, secret: '' }, 'secret'],
  ['an unknown access rule method', { ...baseSpec, accessRules: [{ service: 'compute', path: '/x', method: 'FETCH' }] }, 'accessRules[0].method'],
  ['a string where a number belongs', { ...baseSpec, expirationDays: 'many' }, 'expirationDays'],
];

describe('the KeystoneApplicationCredential CRD and the codec agree', () => {
  it.each(cases)('on %s', async (_name, spec, field) => {
    const name = `cr-${String(cases.findIndex(([n]) => n === _name))}`;
    const body = { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name, namespace }, spec };
    const server = await client.create({ type: appCredType, namespace, name }, body).then(
      (created) => ({ accepted: true as const, created }),
      (error: unknown) => ({ accepted: false as const, error }),
    );
    if (field === undefined) {
      expect(server.accepted).toBe(true);
      const decoded = server.accepted ? decodeAppCred(server.created) : undefined;
      expect(decoded !== undefined && !isLeft(decoded)).toBe(true);
      return;
    }
    expect(server.accepted).toBe(false);
    const error = server.accepted ? undefined : server.error;
    expect(error).toBeInstanceOf(KeywardError);
    expect((error as KeywardError).code).toBe(422);
    // The server names fields as spec.<path>; a CEL rule speaks its own message.
    expect((error as KeywardError).message).toContain(field.includes(' ') ? field : `spec.${field}`);

    // The codec sees what the server would have stored: the same defaults applied.
    const decoded = decodeAppCred({ ...body, metadata: { ...body.metadata, uid: 'u', generation: 1 } });
    expect(isLeft(decoded)).toBe(true);
    if (isLeft(decoded)) expect(decoded.left.message).toContain(field);
  });
});
