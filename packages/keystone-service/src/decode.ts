import type { Either } from 'fp-ts/lib/Either.js';
import { left } from 'fp-ts/lib/Either.js';
import { decodeStored } from '@keyward/kernel/plan';
import { isDateTime, type DecodeFailure, readConditions } from '@keyward/kernel/model';
import { type KubeObject } from '@keyward/kernel';
import { MAX_NAME_LENGTH, NAME_PATTERN } from './api.js';
import { isUpgradePhase } from './upgrade.js';
import { KeystoneSpecCodec, type Keystone, type KeystoneStatus } from './spec.js';

export const NAME_MESSAGE = `the name must be a DNS-1035 label of at most ${String(MAX_NAME_LENGTH)} characters, so the names derived from it fit`;

/** The status as stored, reduced to the fields we know with the right types: a status never makes an object undecodable. */
export function readStatus(raw: unknown): KeystoneStatus {
  const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const status: Record<string, unknown> = {};
  if (typeof fields['observedGeneration'] === 'number') status['observedGeneration'] = fields['observedGeneration'];
  for (const key of ['endpoint', 'configMapName', 'bootstrapRunKey', 'installedRelease', 'targetRelease']) {
    const value = fields[key];
    if (typeof value === 'string' && value !== '') status[key] = value;
  }
  for (const key of ['lastFernetRotation', 'nextFernetRotation']) {
    const value = fields[key];
    if (typeof value === 'string' && isDateTime(value)) status[key] = value;
  }
  if (isUpgradePhase(fields['upgradePhase'])) status['upgradePhase'] = fields['upgradePhase'];
  if (Array.isArray(fields['conditions'])) status['conditions'] = readConditions(fields['conditions']);
  return status;
}

/** Validates and defaults a Keystone read from the API server; the name is checked as the CRD's rule does. */
export function decodeKeystone(object: KubeObject): Either<DecodeFailure, Keystone> {
  const name = object.metadata.name;
  if (name.length > MAX_NAME_LENGTH || !new RegExp(NAME_PATTERN).test(name)) {
    return left({ message: `metadata.name: ${NAME_MESSAGE}`, problems: [{ path: 'metadata.name', message: NAME_MESSAGE }] });
  }
  return decodeStored(object, KeystoneSpecCodec, readStatus);
}
