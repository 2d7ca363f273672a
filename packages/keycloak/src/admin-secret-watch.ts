import { coreTypes, type PlanFailure, type ResourceType } from '@keyward/kernel';
import type { KeycloakConfig } from './config.js';

/** Why a reconcile fails when the fault is the operator's own admin credentials, not the object. */
const ADMIN_CREDENTIAL_REASONS: ReadonlySet<string> = new Set(['AdminLoginRefused', 'AdminSecretNotFound', 'AdminCredentialsIncomplete']);

/**
 * An object whose reconcile failed on the admin credentials refers to their Secret until it reconciles again:
 * the Secret is watched by name, and fixing or rotating it wakes exactly the objects that wait, at once, instead
 * of at their next backoff (minutes after a long outage). Objects that are fine do not refer to it, so a
 * rotation does not reconcile every realm and client.
 */
export const adminSecretWhileRefused: {
  readonly type: ResourceType;
  readonly of: (cr: unknown, config: KeycloakConfig, failure?: PlanFailure) => readonly { readonly namespace: string; readonly name: string }[];
} = {
  type: coreTypes.secret,
  of: (_cr, config, failure) => {
    const secret = config.keycloakAdminSecret;
    return secret !== undefined && failure !== undefined && ADMIN_CREDENTIAL_REASONS.has(failure.reason) ? [secret] : [];
  },
};
