import { describe, expect, it } from '@jest/globals';
import { defaultKeycloakConfig } from '../src/config.js';
import { keycloakClientController } from '../src/client/controller.js';
import { keycloakRealmModule, parseResyncPeriod } from '../src/module.js';
import { keycloakRealmController } from '../src/realm/controller.js';

describe('--keycloak-resync-period', () => {
  it('takes a duration, or 0 for off', () => {
    expect(parseResyncPeriod('10m')).toEqual({ ok: true, value: 600_000 });
    expect(parseResyncPeriod('1h30m')).toEqual({ ok: true, value: 5_400_000 });
    expect(parseResyncPeriod(' 0 ')).toEqual({ ok: true, value: 0 });
    expect(parseResyncPeriod('600000')).toEqual({ ok: false, problem: 'is not a duration such as 30s, 10m or 1h, or 0 (off)' });
  });

  it('refuses what is no duration, and periods under a second or over a day', () => {
    expect(parseResyncPeriod('often')).toEqual({ ok: false, problem: 'is not a duration such as 30s, 10m or 1h, or 0 (off)' });
    expect(parseResyncPeriod('500ms')).toEqual({ ok: false, problem: 'is not between 1s and 1d, or 0 (off)' });
    expect(parseResyncPeriod('2d')).toEqual({ ok: false, problem: 'is not between 1s and 1d, or 0 (off)' });
  });

  it('is written back as the flag takes it, the exact value whatever the short form would round', () => {
    const format = (ms: number): string | undefined => keycloakRealmModule.options.keycloakResyncPeriod?.format?.(ms);
    expect(format(600_000)).toBe('10m');
    expect(format(0)).toBe('0');
    expect(format(5_415_000)).toBe('5415000ms');
    expect(parseResyncPeriod(format(5_415_000) ?? '')).toEqual({ ok: true, value: 5_415_000 });
  });

  it('is how both controllers spread their resync: every 10 minutes unless told otherwise', () => {
    expect(keycloakRealmController.spreadResyncMs?.(defaultKeycloakConfig)).toBe(600_000);
    expect(keycloakClientController.spreadResyncMs?.({ ...defaultKeycloakConfig, keycloakResyncPeriod: 0 })).toBe(0);
  });
});
