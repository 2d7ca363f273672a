import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/apis/kubernetes/actions.js';
import type { SecretKeyRef } from '../../src/apis/keystone/actions.js';
import { KeywardError } from '../../src/interpreter/errors.js';
import { secretKeyValue } from '../../src/interpreter/secret-key.js';

const secret = (labels: Record<string, string> | undefined, data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'smtp', namespace: 'shop', ...(labels === undefined ? {} : { labels }) },
  data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
});
const ref: SecretKeyRef = { kind: 'secretKey', namespace: 'shop', name: 'smtp', key: 'password' };
const optIn = { 'example.com/opt-in': 'true' };

function failure(read: () => unknown): { reason: string; message: string; retryable: boolean } {
  try {
    read();
  } catch (error) {
    if (error instanceof KeywardError) return { reason: error.reason, message: error.message, retryable: error.retryable };
    throw error;
  }
  throw new Error('no failure');
}

describe('secretKeyValue', () => {
  it('reads the key with its trailing newline trimmed', () => {
    expect(secretKeyValue(secret(undefined, { password: 'hunter2\n' }), ref).reveal()).toBe('hunter2');
  });

  it('refuses a Secret without the labels the reference requires, without decoding it', () => {
    const required = { ...ref, requiredLabels: optIn };
    expect(failure(() => secretKeyValue(secret({ 'example.com/opt-in': 'false' }, { password: 'hunter2' }), required))).toEqual({
      reason: 'SecretNotOptedIn', message: 'Secret shop/smtp lacks the label example.com/opt-in=true, so it is not read', retryable: true,
    });
    expect(secretKeyValue(secret(optIn, { password: 'hunter2' }), required).reveal()).toBe('hunter2');
  });

  it('names a missing Secret or key, retryable since someone may create them', () => {
    expect(failure(() => secretKeyValue(undefined, ref))).toMatchObject({ reason: 'PasswordSecretNotFound', message: 'Secret shop/smtp not found', retryable: true });
    expect(failure(() => secretKeyValue(secret(undefined, { other: 'x' }), ref))).toMatchObject({ reason: 'PasswordKeyNotFound', retryable: true });
  });
});
