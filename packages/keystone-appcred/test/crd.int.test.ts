import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace, crdCodecDisagreements, printedTable } from '@keyward/test-env';
import type { KubeObject } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { KeywardError } from '@keyward/kernel/interpreter';
import { MAX_EXPIRATION_DAYS, appCredType } from '../src/api.js';
import { appCredCrd } from '../src/crd.js';
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

const rule = { service: 'compute', path: '/servers', method: 'GET' };

/**
 * [description, spec, path the rejection must name as "<path>:" on both sides (undefined: valid)]. The CEL rule
 * names its field too (fieldPath), so a user is pointed at spec.gracePeriodDays, not at the whole spec.
 */
const cases: [string, Record<string, unknown> | undefined, string | undefined][] = [
  ['a full spec', { ...baseSpec, accessRules: [rule] }, undefined],
  ['defaults left out', { secret: 's', passwordSelector: 'p', userName: 'u', roles: ['service'] }, undefined],
  ['the longest lifetime and grace period', { ...baseSpec, expirationDays: MAX_EXPIRATION_DAYS, gracePeriodDays: MAX_EXPIRATION_DAYS - 1 }, undefined],
  ['a dotted password Secret name', { ...baseSpec, secret: 'osp.secret-2' }, undefined],
  ['two access rules that differ only in method', { ...baseSpec, accessRules: [rule, { ...rule, method: 'POST' }] }, undefined],
  ['two access rules that would read alike joined, but for the space no service has', { ...baseSpec, accessRules: [{ ...rule, service: 'compute b' }, { ...rule, path: '/b /servers' }] }, 'spec.accessRules[0].service'],
  ['gracePeriodDays equal to expirationDays', { ...baseSpec, expirationDays: 10, gracePeriodDays: 10 }, 'spec.gracePeriodDays'],
  ['a default grace period longer than a short expiry', { ...baseSpec, expirationDays: 30, gracePeriodDays: undefined }, 'spec.gracePeriodDays'],
  ['expirationDays below 2', { ...baseSpec, expirationDays: 1, gracePeriodDays: 1 }, 'spec.expirationDays'],
  ['expirationDays beyond 100 years', { ...baseSpec, expirationDays: MAX_EXPIRATION_DAYS + 1 }, 'spec.expirationDays'],
  ['expirationDays beyond 2^53', { ...baseSpec, expirationDays: 2 ** 53 + 2 }, 'spec.expirationDays'],
  ['gracePeriodDays below 1', { ...baseSpec, gracePeriodDays: 0 }, 'spec.gracePeriodDays'],
  ['gracePeriodDays of 100 years', { ...baseSpec, expirationDays: MAX_EXPIRATION_DAYS, gracePeriodDays: MAX_EXPIRATION_DAYS }, 'spec.gracePeriodDays'],
  ['no roles', { ...baseSpec, roles: [] }, 'spec.roles'],
  ['a role listed twice', { ...baseSpec, roles: ['service', 'admin', 'service'] }, 'spec.roles[2]'],
  ['an access rule listed twice', { ...baseSpec, accessRules: [rule, { ...rule }] }, 'spec.accessRules[1]'],
  ['no userName', { ...baseSpec, userName: undefined }, 'spec.userName'],
  ['an empty secret name', { ...baseSpec, secret: '' }, 'spec.secret'],
  ['a secret name with a backslash', { ...baseSpec, secret: 'osp\\secret' }, 'spec.secret'],
  ['a secret name with capitals', { ...baseSpec, secret: 'OSP-secret' }, 'spec.secret'],
  ['a secret name longer than 253 characters', { ...baseSpec, secret: 'o'.repeat(254) }, 'spec.secret'],
  ['an unknown access rule method', { ...baseSpec, accessRules: [{ service: 'compute', path: '/x', method: 'FETCH' }] }, 'spec.accessRules[0].method'],
  ['a string where a number belongs', { ...baseSpec, expirationDays: 'many' }, 'spec.expirationDays'],
  // Keystone's own limits: it refuses these on every try (a long path with 413 and its HTML page).
  ['the longest access rule path and service', { ...baseSpec, accessRules: [{ service: 's'.repeat(64), path: `/${'p'.repeat(224)}`, method: 'GET' }] }, undefined],
  ['an access rule path not starting with /', { ...baseSpec, accessRules: [{ ...rule, path: 'servers' }] }, 'spec.accessRules[0].path'],
  ['an access rule path of 226 characters', { ...baseSpec, accessRules: [{ ...rule, path: `/${'p'.repeat(225)}` }] }, 'spec.accessRules[0].path'],
  ['an access rule path of 225 characters, each outside the BMP', { ...baseSpec, accessRules: [{ ...rule, path: `/${'\u{1F511}'.repeat(224)}` }] }, undefined],
  ['an access rule service with a space', { ...baseSpec, accessRules: [{ ...rule, service: 'block storage' }] }, 'spec.accessRules[0].service'],
  ['an access rule service of 65 characters', { ...baseSpec, accessRules: [{ ...rule, service: 's'.repeat(65) }] }, 'spec.accessRules[0].service'],
  ['a role name of only spaces', { ...baseSpec, roles: ['  '] }, 'spec.roles[0]'],
  ['a role name of 256 characters', { ...baseSpec, roles: ['r'.repeat(256)] }, 'spec.roles[0]'],
  ['100 roles', { ...baseSpec, roles: Array.from({ length: 100 }, (_, i) => `role-${String(i)}`) }, undefined],
  ['101 roles', { ...baseSpec, roles: Array.from({ length: 101 }, (_, i) => `role-${String(i)}`) }, 'spec.roles'],
  ['101 access rules', { ...baseSpec, accessRules: Array.from({ length: 101 }, (_, i) => ({ ...rule, path: `/servers/${String(i)}` })) }, 'spec.accessRules'],
  ['no spec', undefined, 'spec'],
];

describe('the KeystoneApplicationCredential CRD and the codec agree', () => {
  it.each(cases)('on %s', async (_name, spec, field) => {
    const name = `cr-${String(cases.findIndex(([n]) => n === _name))}`;
    const body = { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name, namespace }, ...(spec === undefined ? {} : { spec }) };
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
    const named = `${field}:`;
    expect((error as KeywardError).message).toContain(named);

    // The codec sees what the server would have stored: the same defaults applied.
    const decoded = decodeAppCred({ ...body, metadata: { ...body.metadata, uid: 'u', generation: 1 } });
    expect(isLeft(decoded)).toBe(true);
    if (isLeft(decoded)) expect(decoded.left.message).toContain(named);
  });
});

describe('kubectl get appcred', () => {
  it('prints when a healthy credential becomes eligible for rotation, a future time, as the time itself', async () => {
    const ref = { type: appCredType, namespace, name: 'columns' };
    await client.create(ref, { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name: 'columns', namespace }, spec: baseSpec });
    const lastRotated = new Date(Date.now() - 3 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const rotationEligibleAt = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await client.patch(ref, { status: { acID: 'ac-1', secretName: 'columns-ab12c', lastRotated, rotationEligibleAt } }, ContentType.mergePatch, 'status');

    const { columns, rows } = await printedTable(adminKubeConfig(), `/apis/keystone.openstack.org/v1beta1/namespaces/${namespace}/keystoneapplicationcredentials?fieldSelector=metadata.name%3Dcolumns`);
    const cell = (column: string): unknown => rows[0]?.[columns.indexOf(column)];
    expect(columns).toEqual(['Name', 'ACID', 'SecretName', 'LastRotated', 'RotationEligible', 'Status', 'Message', 'Age']);
    expect(cell('RotationEligible')).toBe(rotationEligibleAt);
    // A past time reads as an age, as kubectl prints one.
    expect(cell('LastRotated')).toMatch(/^\d+h$|^1\d\dm$/);
  });
});

describe('fuzzed, the KeystoneApplicationCredential CRD and the codec', () => {
  it('give the same verdict on a valid spec with any one field changed', async () => {
    const validSpec = { ...baseSpec, accessRules: [rule] };
    const subject = { crd: appCredCrd, validSpec, decodes: (object: Readonly<Record<string, unknown>>) => isRight(decodeAppCred(object as KubeObject)) };
    expect(await crdCodecDisagreements(adminKubeConfig(), namespace, subject, { runs: 300, seed: 12 })).toEqual([]);
  });
});
