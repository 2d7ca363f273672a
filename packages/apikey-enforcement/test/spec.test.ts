import { describe, expect, it } from '@jest/globals';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { decodeAPIKey } from '../src/decode.js';

const spec = { apiProductRef: { name: 'weather' }, secretRef: { name: 'my-key-secret' }, planTier: 'gold', useCase: 'demo', requestedBy: { userId: 'u-1', email: 'a@example.com' } };
const decoded = (overrides: Record<string, unknown>) =>
  decodeAPIKey({ apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name: 'k', namespace: 'team-a', uid: 'u' }, spec: { ...spec, ...overrides } });

describe('an APIKey spec', () => {
  // The product's name becomes a label value of the enforcement Secret, the Secret's name a path and a field
  // selector: text that is no object name would fail the Secret's creation on every retry, or widen a selector.
  it.each([
    ['a product name that is no label value', { apiProductRef: { name: 'ünïcödé' } }, 'spec.apiProductRef.name'],
    ['a product name with a space', { apiProductRef: { name: 'weather api' } }, 'spec.apiProductRef.name'],
    ['a Secret name with a comma', { secretRef: { name: 'key,type=Opaque' } }, 'spec.secretRef.name'],
    ['a Secret name that is a path step', { secretRef: { name: '..' } }, 'spec.secretRef.name'],
    ['an expiry in words', { expiresAt: 'next year' }, 'spec.expiresAt'],
  ])('is refused with %s, naming the field', (_what, overrides, field) => {
    const result = decoded(overrides);
    expect(isLeft(result) && result.left.problems.map((p) => p.path)).toEqual([field]);
  });

  it('takes dotted object names and an RFC 3339 expiry', () => {
    expect(isRight(decoded({ apiProductRef: { name: 'weather.v2', namespace: 'products' }, secretRef: { name: 'key.v2' }, expiresAt: '2030-01-31T12:00:00Z' }))).toBe(true);
  });
});
