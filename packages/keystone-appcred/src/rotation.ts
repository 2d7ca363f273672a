import { DAY_MS, formatTime } from '@keyward/kernel/model';
import { computeSecurityHash } from './security-hash.js';
import type { KeystoneApplicationCredential } from './api.js';

function parseTime(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** When rotation becomes due: expiresAt minus the grace period. */
export function rotationEligibleAt(expiresAt: Date, gracePeriodDays: number): Date {
  return new Date(expiresAt.getTime() - gracePeriodDays * DAY_MS);
}

/**
 * Why the credential must be replaced now; empty when it must not. Rotation is due when there is no
 * credential, when the stored security hash (if any) differs from the spec's, when `now` is strictly after
 * expiresAt minus the grace period, when expiresAt is missing or unreadable (upstream then never rotated), or
 * when the Secret named in status is gone.
 */
export function rotationReasons(cr: KeystoneApplicationCredential, currentSecretExists: boolean, now: Date): string[] {
  const { status, spec } = cr;
  if (status.acID === undefined) return ['no application credential exists yet'];
  const reasons: string[] = [];
  if (status.securityHash !== undefined && status.securityHash !== computeSecurityHash(spec)) {
    reasons.push('roles, accessRules or unrestricted changed');
  }
  const expiresAt = parseTime(status.expiresAt);
  if (expiresAt === undefined) {
    reasons.push('the expiry of the current credential is unknown');
  } else if (now.getTime() > rotationEligibleAt(expiresAt, spec.gracePeriodDays).getTime()) {
    reasons.push(`the grace period before expiry (${formatTime(expiresAt)}) has been reached`);
  }
  if (status.secretName !== undefined && !currentSecretExists) reasons.push(`Secret ${status.secretName} is missing`);
  if (status.secretName === undefined) reasons.push('no Secret holds the current credential');
  return reasons;
}

/**
 * status.rotationEligibleAt as the spec stands now: upstream writes it on every reconcile that does not rotate,
 * so a gracePeriodDays change shows at once. Undefined when expiresAt is unknown.
 */
export function currentRotationEligibleAt(cr: KeystoneApplicationCredential): string | undefined {
  const expiresAt = parseTime(cr.status.expiresAt);
  return expiresAt === undefined ? undefined : formatTime(rotationEligibleAt(expiresAt, cr.spec.gracePeriodDays));
}

/** Milliseconds from `now` until just after rotation becomes due, when that is in the future. */
export function untilRotation(cr: KeystoneApplicationCredential, now: Date): number | undefined {
  const expiresAt = parseTime(cr.status.expiresAt);
  if (expiresAt === undefined) return undefined;
  const due = rotationEligibleAt(expiresAt, cr.spec.gracePeriodDays).getTime() - now.getTime();
  // "Strictly after": one second past the boundary, so the reconcile it triggers rotates.
  return due >= 0 ? due + 1_000 : undefined;
}
