import type { Observed } from '@keyward/kernel';
import type { RealmQueries } from './types.js';
import type { RealmSecretUse } from './secret-opt-in.js';
import { idpSecretUses } from './identity-providers/secrets.js';
import { federationSecretUses } from './user-federation/secrets.js';
import type { KeycloakRealm } from './spec.js';

/** Every Secret the realm's spec makes the operator read, as observed. */
export function realmSecretUses(cr: KeycloakRealm, observed: Observed<RealmQueries>): RealmSecretUse[] {
  const smtp = cr.spec.smtpServer?.passwordSecret;
  return [
    ...(smtp === undefined ? [] : [{ name: smtp.name, holds: 'the SMTP password', reason: 'SmtpPassword', secret: observed.smtpPasswordSecret }]),
    ...idpSecretUses(cr, observed),
    ...federationSecretUses(cr, observed),
  ];
}
