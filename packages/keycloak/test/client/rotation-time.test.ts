// Rotation at a time of day: once the period has passed, at the next moment the zone's clock shows rotationTime.
import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decodeKeycloakClient } from '../../src/client/decode.js';
import { secretRenewal, renewalOnCreation } from '../../src/client/rotation.js';
import { nextTimeOfDay } from '../../src/client/rotation-time.js';
import type { KeycloakClient } from '../../src/client/spec.js';

const at = (iso: string): number => Date.parse(iso);

function client(secretRotation: Record<string, unknown>, lastSecretRotation: string): KeycloakClient {
  const decoded = decodeKeycloakClient({
    apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name: 'shop', namespace: 'team-a', uid: 'u', generation: 1 },
    spec: { clientId: 'shop-web', realmRef: { name: 'shared-realm' }, secretRotation: { enabled: true, ...secretRotation } },
    status: { lastSecretRotation },
  });
  if (isLeft(decoded)) throw new Error(decoded.left.message);
  return decoded.right;
}

describe('the next time of day', () => {
  it.each([
    ['later the same day, in UTC', '2026-03-02T01:00:00Z', '03:00', 'UTC', '2026-03-02T03:00:00Z'],
    ['the next day when the time has passed', '2026-03-02T12:00:00Z', '03:00', 'UTC', '2026-03-03T03:00:00Z'],
    ['the moment itself', '2026-03-02T03:00:00Z', '03:00', 'UTC', '2026-03-02T03:00:00Z'],
    ['in a zone an hour ahead of UTC (winter)', '2026-03-02T12:00:00Z', '03:00', 'Europe/Amsterdam', '2026-03-03T02:00:00Z'],
    ['in that zone two hours ahead (summer)', '2026-07-02T12:00:00Z', '03:00', 'Europe/Amsterdam', '2026-07-03T01:00:00Z'],
    ['across the zone\'s change to summer time', '2026-03-28T12:00:00Z', '04:00', 'Europe/Amsterdam', '2026-03-29T02:00:00Z'],
    ['in a zone behind UTC, still on the day before there', '2026-03-02T03:00:00Z', '23:30', 'America/New_York', '2026-03-02T04:30:00Z'],
  ])('%s', (_what, from, time, zone, expected) => {
    expect(new Date(nextTimeOfDay(at(from), time, zone)).toISOString()).toBe(new Date(at(expected)).toISOString());
  });
});

describe('a rotation with rotationTime', () => {
  const rotation = { rotationPeriod: '1d', rotationTime: '03:00', timezone: 'Europe/Amsterdam' };

  it('waits past the period for the time of day, and is requeued for it', () => {
    const renewal = secretRenewal(client(rotation, '2026-03-01T12:00:00Z'), new Date('2026-03-02T13:00:00Z'));
    expect(renewal.reasons).toEqual([]);
    expect(renewal.requeueAfterMs).toBe(at('2026-03-03T02:00:00Z') - at('2026-03-02T13:00:00Z'));
  });

  it('rotates at that time', () => {
    const renewal = secretRenewal(client(rotation, '2026-03-01T12:00:00Z'), new Date('2026-03-03T02:00:00Z'));
    expect(renewal.reasons).toHaveLength(1);
    expect(renewal.lastSecretRotation).toBe('2026-03-03T02:00:00Z');
  });

  it('in UTC when no zone is given', () => {
    const renewal = secretRenewal(client({ rotationPeriod: '1d', rotationTime: '03:00' }, '2026-03-01T12:00:00Z'), new Date('2026-03-02T13:00:00Z'));
    expect(renewal.requeueAfterMs).toBe(at('2026-03-03T03:00:00Z') - at('2026-03-02T13:00:00Z'));
  });

  it('counts a new client\'s first rotation the same way', () => {
    expect(renewalOnCreation(client(rotation, '2026-03-01T12:00:00Z'), new Date('2026-03-01T12:00:00Z')).requeueAfterMs).toBe(at('2026-03-03T02:00:00Z') - at('2026-03-01T12:00:00Z'));
  });
});
