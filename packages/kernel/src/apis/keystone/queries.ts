import type { Returns } from '../../plan/actions.js';
import type { KeystonePasswordLogin, SecretKeyRef } from './actions.js';

/**
 * Whether Keystone issued a token: never the token itself. A refusal says why in Keystone's words (with the
 * password masked) and the HTTP reason or "Unavailable" when Keystone could not be reached.
 */
export type TokenCheck = { readonly issued: true } | { readonly issued: false; readonly reason: string; readonly message: string };

/**
 * Asks Keystone for a fresh password token, to prove that its API issues tokens now: no cached token answers
 * it. The password is read from its Secret when the query runs. Answered, never thrown: a refusal or an
 * unreachable endpoint is a result.
 */
export interface KeystoneTokenQuery extends KeystonePasswordLogin, Returns<TokenCheck> {
  readonly kind: 'keystone.token';
  readonly password: SecretKeyRef;
}

export type KeystoneQuery = KeystoneTokenQuery;
