// The APIKey CRD and the codec give the same verdict: what the API server stores, the controller can read,
// and what the codec refuses, the API server refuses too, naming the same field.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace, crdCodecDisagreements } from '@keyward/test-env';
import type { KubeObject } from '@keyward/kernel';
import { KeywardError } from '@keyward/kernel/interpreter';
import { KubeClient } from '@keyward/runtime/io';
import { apiKeyType } from '../src/api.js';
import { apiKeyCrd } from '../src/crd.js';
import { decodeAPIKey } from '../src/decode.js';

let client: KubeClient;
let namespace: string;

beforeAll(async () => {
  client = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('apikey-crd');
});

afterAll(() => {
  client.close();
});

const spec = { apiProductRef: { name: 'weather' }, secretRef: { name: 'key' }, planTier: 'gold', useCase: 'test', requestedBy: { userId: 'alice', email: 'alice@example.com' } };

/** The field a rejection names on both sides, or undefined where both accept. */
const verdicts: [string, unknown, string | undefined][] = [
  ['an expiry in RFC 3339', { ...spec, expiresAt: '2030-01-31T12:00:00+01:00' }, undefined],
  ['an expiry with text after its time zone', { ...spec, expiresAt: '2030-01-31T12:00:00ZTlater' }, 'spec.expiresAt'],
  ['an expiry in words', { ...spec, expiresAt: 'next year' }, 'spec.expiresAt'],
  ['an expiry on a day that does not exist', { ...spec, expiresAt: '2030-02-29T00:00:00Z' }, 'spec.expiresAt'],
  ['an expiry without a time zone', { ...spec, expiresAt: '2030-01-31T12:00:00' }, 'spec.expiresAt'],
  ['a product name that is no object name (and no label value)', { ...spec, apiProductRef: { name: 'ünïcödé' } }, 'spec.apiProductRef.name'],
  ['a Secret name that would add a field selector term', { ...spec, secretRef: { name: 'key,type=Opaque' } }, 'spec.secretRef.name'],
  ['dotted names', { ...spec, apiProductRef: { name: 'weather.v2' }, secretRef: { name: 'key.v2' } }, undefined],
  ['no spec', undefined, 'spec'],
  ['an expiry given as a list', { ...spec, expiresAt: ['2030-01-31T12:00:00Z'] }, 'spec.expiresAt'],
  ['an expiry given as an empty list', { ...spec, expiresAt: [] }, 'spec.expiresAt'],
];

describe('the APIKey CRD and the codec agree', () => {
  it.each(verdicts)('on %s', async (what, body, field) => {
    const name = `key-${String(verdicts.findIndex(([w]) => w === what))}`;
    const object = { apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name, namespace }, ...(body === undefined ? {} : { spec: body }) };
    const stored = await client.create({ type: apiKeyType, namespace, name }, object).catch((error: unknown) => error);
    const codec = decodeAPIKey({ ...object, metadata: { ...object.metadata, uid: 'u', generation: 1 } });
    if (field === undefined) {
      expect(stored).not.toBeInstanceOf(Error);
      expect(isLeft(codec)).toBe(false);
    } else {
      expect(stored).toBeInstanceOf(KeywardError);
      expect(stored instanceof KeywardError && stored.code).toBe(422);
      expect(stored instanceof KeywardError && stored.message).toContain(`${field}:`);
      expect(isLeft(codec) && codec.left.message).toContain(`${field}:`);
    }
  });
});

describe('fuzzed, the APIKey CRD and the codec', () => {
  it('give the same verdict on a valid spec with any one field changed', async () => {
    const subject = { crd: apiKeyCrd, validSpec: spec, decodes: (object: Readonly<Record<string, unknown>>) => isRight(decodeAPIKey(object as KubeObject)) };
    expect(await crdCodecDisagreements(adminKubeConfig(), namespace, subject, { runs: 300, seed: 12 })).toEqual([]);
  });
});
