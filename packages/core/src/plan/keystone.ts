import type { Sensitive } from '../model/sensitive.js';
import type { Value } from './values.js';

/** A logged-in Keystone user: what authenticate produces and the other Keystone actions use. */
export interface KeystoneSession {
  readonly endpoint: string;
  readonly token: Sensitive;
  readonly userId: string;
}

export interface KeystoneAccessRule {
  readonly service: string;
  readonly path: string;
  readonly method: string;
}

/** Password authentication scoped to a project; the user id comes from the token. */
export interface KeystoneAuthenticateAction {
  readonly kind: 'keystone.authenticate';
  /** Identity v3 URL, ending in /v3. */
  readonly endpoint: string;
  readonly userName: string;
  readonly userDomain: string;
  readonly projectName: string;
  readonly projectDomain: string;
  readonly password: Sensitive;
}

export interface KeystoneCreateApplicationCredentialAction {
  readonly kind: 'keystone.createApplicationCredential';
  readonly session: Value<KeystoneSession>;
  readonly name: string;
  readonly description: string;
  readonly roles: readonly string[];
  /** Sent only when non-empty. */
  readonly accessRules?: readonly KeystoneAccessRule[] | undefined;
  readonly unrestricted: boolean;
  /** ISO 8601 without zone, microsecond precision, as Keystone expects; undefined for no expiry. */
  readonly expiresAt?: string | undefined;
}

export interface KeystoneListApplicationCredentialsAction {
  readonly kind: 'keystone.listApplicationCredentials';
  readonly session: Value<KeystoneSession>;
  readonly name?: string | undefined;
}

/** Revokes (deletes) a credential; one that is already gone counts as "unchanged". */
export interface KeystoneRevokeApplicationCredentialAction {
  readonly kind: 'keystone.revokeApplicationCredential';
  readonly session: Value<KeystoneSession>;
  readonly id: Value<string>;
}

export interface CreatedApplicationCredential {
  readonly id: string;
  readonly name: string;
  readonly secret: Sensitive;
  /** As Keystone returned it; null for no expiry. */
  readonly expiresAt: string | null;
}

export interface ApplicationCredentialSummary {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly expiresAt: string | null;
}

export type KeystoneAction =
  | KeystoneAuthenticateAction
  | KeystoneCreateApplicationCredentialAction
  | KeystoneListApplicationCredentialsAction
  | KeystoneRevokeApplicationCredentialAction;
