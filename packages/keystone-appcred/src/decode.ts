import type { Either } from 'fp-ts/lib/Either.js';
import { decodeStored } from '@keyward/kernel/plan';
import { isDns1123Subdomain, type DecodeFailure, readConditions } from '@keyward/kernel/model';
import { type KubeObject } from '@keyward/kernel';
import { SpecCodec, type AppCredStatus, type KeystoneApplicationCredential } from './api.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
/**
 * The Secrets the status names are read by name and may be labelled: a name that is no object name (".."
 * resolves to the namespace's own path, so its GET answers with the Namespace) must never get that far.
 */
const objectName = (value: unknown): string | undefined => (typeof value === 'string' && isDns1123Subdomain(value) ? value : undefined);
const SECRET_NAMES: readonly string[] = ['secretName', 'previousSecretName'];

/**
 * Status is ours to write, but objects may come from the upstream operator (or anyone allowed to write the
 * status): keep the fields we know when they have the right type and ignore the rest, so a status never makes
 * an object undecodable.
 */
export function readStatus(raw: unknown): AppCredStatus {
  const s = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const status: Record<string, unknown> = {};
  for (const key of ['acID', 'secretName', 'previousSecretName', 'createdAt', 'expiresAt', 'rotationEligibleAt', 'lastRotated', 'securityHash', 'pendingACName']) {
    const value = SECRET_NAMES.includes(key) ? objectName(s[key]) : text(s[key]);
    if (value !== undefined) status[key] = value;
  }
  if (typeof s['observedGeneration'] === 'number') status['observedGeneration'] = s['observedGeneration'];
  if (Array.isArray(s['conditions'])) status['conditions'] = readConditions(s['conditions']);
  return status;
}

/** Validates and defaults a KeystoneApplicationCredential read from the API server. */
export function decodeAppCred(object: KubeObject): Either<DecodeFailure, KeystoneApplicationCredential> {
  return decodeStored(object, SpecCodec, readStatus);
}
