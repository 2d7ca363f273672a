import type { Sensitive } from '../../model/sensitive.js';
import type { Produces } from '../../plan/actions.js';
import type { Value } from '../../plan/values.js';

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

/**
 * A password kept in a Kubernetes Secret, read by the interpreter when the step runs: plans never hold it,
 * and a rotated password is picked up by the next authentication. A trailing newline is trimmed.
 */
export interface SecretKeyRef {
  readonly kind: 'secretKey';
  readonly namespace: string;
  readonly name: string;
  readonly key: string;
  /** Labels the Secret must carry to be read at all (an opt-in by the Secret's owner). */
  readonly requiredLabels?: Readonly<Record<string, string>>;
}

/** Who logs in where: a user by name, scoped to a project; domains by name ("Default"). */
export interface KeystonePasswordLogin {
  /** Identity v3 URL, ending in /v3. */
  readonly endpoint: string;
  readonly userName: string;
  readonly userDomain: string;
  readonly projectName: string;
  readonly projectDomain: string;
}

/** Password authentication scoped to a project; the user id comes from the token. */
export interface KeystoneAuthenticateAction extends KeystonePasswordLogin, Produces<{ readonly session: KeystoneSession }> {
  readonly kind: 'keystone.authenticate';
  readonly password: Sensitive | SecretKeyRef;
}

export interface KeystoneCreateApplicationCredentialAction extends Produces<CreatedApplicationCredential> {
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

/**
 * Revokes (deletes) a credential by id, or every credential of the user with a given name (to clean up one
 * whose Secret was never written) except the ids in `keep` (credentials stored elsewhere that happen to bear
 * the name). Nothing to revoke counts as "unchanged".
 */
export type KeystoneRevokeApplicationCredentialAction = {
  readonly kind: 'keystone.revokeApplicationCredential';
  readonly session: Value<KeystoneSession>;
} & (
  | { readonly id: Value<string>; readonly name?: undefined; readonly keep?: undefined }
  | { readonly name: string; readonly id?: undefined; readonly keep?: readonly string[] | undefined }
);

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
  | KeystoneRevokeApplicationCredentialAction;
