import { describe, expect, it } from '@jest/globals';
import { parsePlanConfig, parseRunConfig, type OperatorConfig, type PlanConfig } from '../src/config.js';
import { MODULES, moduleNamed } from '../src/controllers.js';
import { resolveOptions } from '../src/option-spec.js';
import { moduleOptions, planOptions } from '../src/options.js';
import { SETTINGS_CONFIGMAP, SETTINGS_KEY, publishedSettings, readPublished, settingsConfigMap, withOperatorSettings, type Lookup, type PublishedSettings } from '../src/operator-settings.js';
import { settingsJson, settingsLine, shownSettings } from '../src/planning/settings.js';

function runConfig(argv: readonly string[]): OperatorConfig {
  const result = parseRunConfig(argv, {});
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

function planConfig(argv: readonly string[], env: Record<string, string> = {}): PlanConfig {
  const result = parsePlanConfig(argv, env);
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

/** What an operator run with these flags publishes, as plan reads it back from its ConfigMap. */
function publishedBy(argv: readonly string[]): PublishedSettings {
  const configMap = settingsConfigMap('keyward-system', publishedSettings(runConfig(argv), '0.1.0')) as { data: unknown };
  const read = readPublished(configMap.data);
  if (!read.ok) throw new Error(read.problem);
  return read.published;
}

const found = (published: PublishedSettings): Lookup => ({ kind: 'found', namespace: 'keyward-system', published });
const none: Lookup = { kind: 'none', namespace: 'keyward-system', reason: 'no ConfigMap keyward-system/keyward-settings' };
const appcred = shownSettings([moduleNamed('keystone-appcred')]);

describe('resolveOptions', () => {
  it('names the options given by flag or variable; an empty variable counts as unset', () => {
    const resolved = resolveOptions(moduleOptions, { keystoneUrl: 'http://keystone:5000' }, { KEYWARD_ENFORCEMENT_NAMESPACE: 'gateway', KEYWARD_KEYCLOAK_URL: '' }, {});
    expect(resolved.ok && resolved.explicit).toEqual(['keystoneUrl', 'enforcementNamespace']);
    const defaults = resolveOptions(planOptions, {}, {}, {});
    expect(defaults.ok && defaults.explicit).toEqual([]);
  });
});

describe('the settings a running operator publishes', () => {
  it('are its controllers\' option values, controllers, namespaces and version, in the ConfigMap keyward-settings', () => {
    const config = runConfig(['--keystone-url', 'http://keystone:5000/v3', '--keycloak-admin-secret', 'keycloak/admin', '--namespaces', 'a,b', '--controllers', 'keystone-appcred,keycloak-realm']);
    const configMap = settingsConfigMap('ops', publishedSettings(config, '1.2.3'));
    expect(configMap).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: SETTINGS_CONFIGMAP, namespace: 'ops', labels: { 'app.kubernetes.io/name': 'keyward' } } });
    const data = (configMap as { data: Record<string, string> }).data;
    expect(Object.keys(data)).toEqual([SETTINGS_KEY]);
    expect(JSON.parse(data[SETTINGS_KEY] ?? '')).toEqual({
      version: '1.2.3',
      controllers: ['keystone-appcred', 'keycloak-realm'],
      namespaces: ['a', 'b'],
      // Every module option, none for those unset; nothing else of the run configuration.
      settings: {
        keystoneUrl: 'http://keystone:5000/v3',
        revokeOnDelete: false,
        enforcementNamespace: 'kuadrant',
        keycloakUrl: null,
        keycloakAdminSecret: { namespace: 'keycloak', name: 'admin' },
        keycloakOperatorNamespace: 'keyward-system',
        keycloakAdoptUnowned: false,
        keycloakAdoptUnownedNamespaces: [],
        keycloakAllowedServiceAccountRoles: [],
        keycloakNamespaceConcurrency: 2,
        keycloakResyncPeriod: 600_000,
        keycloakAllowJsPolicies: false,
        clusterDomain: 'cluster.local',
      },
    });
  });

  it('are read back only when they are keyward\'s settings', () => {
    expect(readPublished(undefined)).toEqual({ ok: false, problem: 'it has no settings.json' });
    expect(readPublished({ [SETTINGS_KEY]: '{' })).toEqual({ ok: false, problem: 'its settings.json is not JSON' });
    expect(readPublished({ [SETTINGS_KEY]: '{"version":"1","controllers":[],"namespaces":"some","settings":{}}' })).toEqual({ ok: false, problem: "its settings.json is not keyward's settings" });
    expect(readPublished({ [SETTINGS_KEY]: '[]' }).ok).toBe(false);
  });
});

describe('plan with the running operator\'s settings', () => {
  const published = publishedBy(['--keystone-url', 'http://keystone:5000/v3', '--revoke-on-delete', '--enforcement-namespace', 'gateway', '--keycloak-admin-secret', 'keycloak/admin']);

  it('takes every published setting not given here', () => {
    const { config, settings } = withOperatorSettings(planConfig([]), found(published));
    expect(Object.fromEntries(Object.keys(moduleOptions).map((key) => [key, config[key]]))).toEqual({
      keystoneUrl: 'http://keystone:5000/v3',
      revokeOnDelete: true,
      enforcementNamespace: 'gateway',
      keycloakUrl: undefined,
      keycloakAdminSecret: { namespace: 'keycloak', name: 'admin' },
      keycloakOperatorNamespace: 'keyward-system',
      keycloakAdoptUnowned: false,
      keycloakAdoptUnownedNamespaces: [],
      keycloakAllowedServiceAccountRoles: [],
      keycloakNamespaceConcurrency: 2,
      keycloakResyncPeriod: 600_000,
      keycloakAllowJsPolicies: false,
      clusterDomain: 'cluster.local',
    });
    expect(new Set(Object.values(settings.origins))).toEqual(new Set(['operator']));
    // The modules are configured from the merged settings, as the operator's are.
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('keeps what is given by flag or variable, even the operator\'s "none" and a boolean\'s default value', () => {
    const given = planConfig(['--keystone-url', 'http://other:5000', '--no-revoke-on-delete'], { KEYWARD_ENFORCEMENT_NAMESPACE: 'mine' });
    const { config, settings } = withOperatorSettings(given, found(published));
    expect([config['keystoneUrl'], config['revokeOnDelete'], config['enforcementNamespace'], config['keycloakAdminSecret']])
      .toEqual(['http://other:5000', false, 'mine', { namespace: 'keycloak', name: 'admin' }]);
    expect(settings.origins).toMatchObject({ keystoneUrl: 'given', revokeOnDelete: 'given', enforcementNamespace: 'given', keycloakAdminSecret: 'operator' });
    expect(settingsLine(settings, appcred, config)).toBe(
      'settings of the running operator in keyward-system (keyward 0.1.0): none taken; given here: --keystone-url http://other:5000, --no-revoke-on-delete',
    );
  });

  it('says where each setting came from, in one line and in JSON', () => {
    const { config, settings } = withOperatorSettings(planConfig(['--no-revoke-on-delete']), found(published));
    expect(settingsLine(settings, appcred, config)).toBe(
      'settings of the running operator in keyward-system (keyward 0.1.0): --keystone-url http://keystone:5000/v3; given here: --no-revoke-on-delete',
    );
    expect(settingsJson(settings, appcred, config)).toEqual({
      operatorNamespace: 'keyward-system',
      operator: { version: '0.1.0', controllers: published.controllers, namespaces: 'all' },
      values: { keystoneUrl: { value: 'http://keystone:5000/v3', from: 'operator' }, revokeOnDelete: { value: false, from: 'given' } },
    });
  });

  it('plans with its own value of a setting the operator did not publish or published in a form it cannot read, and says so', () => {
    const odd: PublishedSettings = { ...published, settings: { revokeOnDelete: 'yes', enforcementNamespace: 'Not A Namespace' } };
    const { config, settings } = withOperatorSettings(planConfig([]), found(odd));
    expect([config['keystoneUrl'], config['revokeOnDelete'], config['enforcementNamespace']]).toEqual([undefined, false, 'kuadrant']);
    expect(settings.unreadable).toEqual(['revokeOnDelete', 'enforcementNamespace']);
    expect(settingsLine(settings, appcred, config)).toBe(
      "settings of the running operator in keyward-system (keyward 0.1.0): none taken; not published, this keyward's defaults: --keystone-url (none); published in a form this keyward cannot read, so its own: --no-revoke-on-delete",
    );
  });

  it('without published settings, plans with its own and says plainly which, and that it found none', () => {
    const given = planConfig(['--keystone-url', 'http://keystone:5000']);
    const { config, settings } = withOperatorSettings(given, none);
    expect(config).toEqual(given);
    expect(settingsLine(settings, appcred, config)).toBe(
      'no settings of a running operator found in keyward-system (no ConfigMap keyward-system/keyward-settings); planning with --keystone-url http://keystone:5000, --no-revoke-on-delete',
    );
    expect(settingsJson(settings, appcred, config)).toEqual({
      operatorNamespace: 'keyward-system',
      operator: null,
      reason: 'no ConfigMap keyward-system/keyward-settings',
      values: { keystoneUrl: { value: 'http://keystone:5000', from: 'given' }, revokeOnDelete: { value: false, from: 'default' } },
    });
  });

  it('shows each option of the selected controllers once, as its flag takes it', () => {
    const all = shownSettings(MODULES);
    expect(all.map(({ key }) => key)).toEqual(Object.keys(moduleOptions));
    const { config, settings } = withOperatorSettings(planConfig([]), found(published));
    expect(settingsLine(settings, all, config)).toBe(
      'settings of the running operator in keyward-system (keyward 0.1.0): --keystone-url http://keystone:5000/v3, --revoke-on-delete, --enforcement-namespace gateway, '
      + '--keycloak-url (none), --keycloak-admin-secret keycloak/admin, --keycloak-operator-namespace keyward-system, --no-keycloak-adopt-unowned, --keycloak-adopt-unowned-namespaces (none), '
      + '--keycloak-namespace-concurrency 2, '
      + '--keycloak-allowed-service-account-roles (none), --keycloak-resync-period 10m, --no-keycloak-allow-js-policies, '
      + '--keystone-cluster-domain cluster.local',
    );
  });
});
