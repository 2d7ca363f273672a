import type { Either } from 'fp-ts/lib/Either.js';
import { decodeStored } from '@keyward/kernel/plan';
import { readConditions, type DecodeFailure } from '@keyward/kernel/model';
import { type KubeObject } from '@keyward/kernel';
import { readEndpoints } from '../endpoints.js';
import { ClientSpecCodec, type KeycloakClient, type KeycloakClientStatus, type ManagedLists } from './spec.js';

type Fields = Record<string, unknown>;

const fields = (raw: unknown): Fields => (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Fields) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const texts = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);

function readManaged(raw: unknown): ManagedLists | undefined {
  const f = fields(raw);
  const managed: Record<string, unknown> = {};
  for (const key of ['defaultClientScopes', 'optionalClientScopes', 'serviceAccountRealmRoles', 'authorizationScopes', 'authorizationResources']) {
    const list = texts(f[key]);
    if (list !== undefined) managed[key] = list;
  }
  const clientRoles = Object.entries(fields(f['serviceAccountClientRoles'])).flatMap(([clientId, roles]) => {
    const list = texts(roles);
    return list === undefined ? [] : [[clientId, list] as const];
  });
  if (clientRoles.length > 0) managed['serviceAccountClientRoles'] = Object.fromEntries(clientRoles);
  return Object.keys(managed).length === 0 ? undefined : managed;
}

/**
 * Status is ours to write, but anyone allowed to write it may have: keep the fields we know when they have
 * the right type and drop the rest, so a status never makes an object undecodable.
 */
export function readClientStatus(raw: unknown): KeycloakClientStatus {
  const s = fields(raw);
  const status: Record<string, unknown> = {};
  for (const key of ['realm', 'clientUuid', 'secretName', 'lastSecretRotation', 'secretRegeneratedFor']) {
    const value = text(s[key]);
    if (value !== undefined) status[key] = value;
  }
  for (const key of ['observedGeneration', 'refusedGeneration']) {
    if (typeof s[key] === 'number') status[key] = s[key];
  }
  if (Array.isArray(s['conditions'])) status['conditions'] = readConditions(s['conditions']);
  const endpoints = readEndpoints(s['endpoints']);
  if (endpoints !== undefined) status['endpoints'] = endpoints;
  const managed = readManaged(s['managed']);
  if (managed !== undefined) status['managed'] = managed;
  return status;
}

/** Validates and defaults a KeycloakClient read from the API server. */
export function decodeKeycloakClient(object: KubeObject): Either<DecodeFailure, KeycloakClient> {
  return decodeStored(object, ClientSpecCodec, readClientStatus);
}
