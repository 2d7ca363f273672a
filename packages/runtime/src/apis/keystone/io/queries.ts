import { tokenRefusal, type QueryTable } from '@keyward/kernel/interpreter';
import type { Sensitive } from '@keyward/kernel';
import type { KeystoneQuery, SecretKeyRef } from '@keyward/kernel/plan';
import type { KeystoneClient } from './client.js';

export interface KeystoneQueryDependencies {
  /** The client for an endpoint (one per endpoint, so each has its own limiter). */
  readonly clientFor: (endpoint: string) => KeystoneClient;
  /** Reads the password the query names by Secret. */
  readonly readSecretKey: (ref: SecretKeyRef) => Promise<Sensitive>;
}

/**
 * Answers to the Keystone queries. The token query logs in afresh, past the token cache: what it proves is that
 * Keystone issues tokens now, which a cached token would not. The token is dropped at once.
 */
export function keystoneQueries({ clientFor, readSecretKey }: KeystoneQueryDependencies): QueryTable<KeystoneQuery> {
  return {
    'keystone.token': async ({ endpoint, userName, userDomain, projectName, projectDomain, password }) => {
      try {
        await clientFor(endpoint).authenticate({ userName, userDomain, projectName, projectDomain, password: await readSecretKey(password) });
        return { issued: true };
      } catch (error) {
        return tokenRefusal(error);
      }
    },
  };
}
