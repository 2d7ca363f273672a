import { createHash, createHmac } from 'node:crypto';
import type { Sensitive } from '@keyward/kernel';

/**
 * The bootstrap Job's re-run key: an HMAC of the admin password keyed with the object's uid, so it changes
 * exactly when the password does, never reveals it, and equal passwords of two objects give different keys.
 * An image change does not re-run bootstrap (re-running it across an upgrade broke the reference).
 */
export function bootstrapRunKey(uid: string, password: Sensitive): string {
  return createHmac('sha256', uid).update(password.reveal()).digest('hex').slice(0, 32);
}

/**
 * A keyed hash of the database URL (password included): it changes exactly when the URL does and reveals
 * nothing of it, keyed with the object's uid as the bootstrap key is.
 */
export function connectionHash(uid: string, url: Sensitive): string {
  return createHmac('sha256', uid).update(url.reveal()).digest('hex').slice(0, 32);
}

/** The db_sync Job's re-run key: the image, the configuration and the database (URL hash, objects) it migrates with. */
export function dbSyncRunKey(image: string, configMapName: string, database: string): string {
  return createHash('sha256').update(`${image}\n${configMapName}\n${database}`).digest('hex').slice(0, 32);
}

/** The policy validation Job's re-run key: the image whose validator runs, and the configuration it checks. */
export function policyValidationRunKey(image: string, configMapName: string): string {
  return createHash('sha256').update(`${image}\n${configMapName}`).digest('hex').slice(0, 32);
}
