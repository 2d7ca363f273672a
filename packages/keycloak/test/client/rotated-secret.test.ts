import { describe, expect, it } from '@jest/globals';
import { ROTATED_SECRET_CREATED_ATTRIBUTE, rotatedSecretStep } from '../../src/client/rotated-secret.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const rotatedAgo = (seconds: number) => ({ [ROTATED_SECRET_CREATED_ATTRIBUTE]: String(NOW.getTime() / 1000 - seconds) });

describe('rotatedSecretStep', () => {
  it('does nothing where Keycloak keeps no rotated secret', () => {
    expect(rotatedSecretStep(undefined, '1h', NOW)).toEqual({ kind: 'none' });
    expect(rotatedSecretStep({ 'client.secret.creation.time': '1' }, '1h', NOW)).toEqual({ kind: 'none' });
  });

  it('waits out the grace period, one hour unless the spec says, from when the secret was rotated out', () => {
    expect(rotatedSecretStep(rotatedAgo(600), undefined, NOW)).toEqual({ kind: 'wait', afterMs: 3_000_000 });
    expect(rotatedSecretStep(rotatedAgo(600), '15m', NOW)).toEqual({ kind: 'wait', afterMs: 300_000 });
  });

  it('invalidates it once the grace period has passed, saying since when', () => {
    expect(rotatedSecretStep(rotatedAgo(900), '15m', NOW)).toEqual({ kind: 'invalidate', reason: 'the grace period 15m of the secret rotated out at 2026-03-01T11:45:00Z has passed' });
  });
});
