import { readEndpoints } from '../endpoints.js';
import type { Either } from 'fp-ts/lib/Either.js';
import { decodeStored } from '@keyward/kernel/plan';
import { readConditions, type DecodeFailure } from '@keyward/kernel/model';
import { type KubeObject } from '@keyward/kernel';
import { readRealmManaged } from './managed.js';
import { readIdpStatus } from './identity-providers/status.js';
import { readFederationStatus } from './user-federation/status.js';
import { RealmSpecCodec, type KeycloakRealm, type KeycloakRealmStatus } from './spec.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The status as stored, reduced to the fields we know with the right types: anyone allowed to write the
 * status may have, and a status must never make an object undecodable. Desired statuses are built with the
 * same fields, so a converged object compares equal and writes nothing.
 */
export function readRealmStatus(raw: unknown): KeycloakRealmStatus {
  const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const status: Record<string, unknown> = {};
  if (Array.isArray(fields['conditions'])) status['conditions'] = readConditions(fields['conditions']);
  for (const key of ['observedGeneration', 'refusedGeneration']) {
    if (typeof fields[key] === 'number') status[key] = fields[key];
  }
  for (const key of ['realmId', 'smtpPasswordVersion', 'message']) {
    const value = text(fields[key]);
    if (value !== undefined) status[key] = value;
  }
  const endpoints = readEndpoints(fields['endpoints']);
  if (endpoints !== undefined) status['endpoints'] = endpoints;
  const managed = readRealmManaged(fields['managed']);
  if (managed !== undefined) status['managed'] = managed;
  const registered = Array.isArray(fields['registeredRequiredActions']) ? fields['registeredRequiredActions'].filter((alias): alias is string => text(alias) !== undefined) : [];
  if (registered.length > 0) status['registeredRequiredActions'] = registered;
  Object.assign(status, readIdpStatus(fields));
  Object.assign(status, readFederationStatus(fields));
  return status;
}

/** Validates and defaults a KeycloakRealm read from the API server. */
export function decodeRealm(object: KubeObject): Either<DecodeFailure, KeycloakRealm> {
  return decodeStored(object, RealmSpecCodec, readRealmStatus);
}
