// The Kopf operator's authentication flows and scope mappings, shaped as Keycloak's realm representation:
// read into Keyward's flows (steps, sub-flows, configs) and scope mappings, said in the Ready message, and
// refused where they cannot mean one thing. Keycloak's side is in corpus.int.test.ts.
import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decodeRealm } from '../../src/realm/decode.js';
import { keycloakRealmCrd } from '../../src/realm/crd.js';
import { BUILT_IN_SCOPE_MESSAGE } from '../../src/realm/built-ins.js';
import {
  BOTH_STEP_SPELLINGS_MESSAGE, BUILT_IN_FLOW_REFUSED_MESSAGE, FLOWS_NOTE, SUB_FLOW_COPY_MESSAGE, SUB_FLOW_MESSAGE, UNNAMED_SUB_FLOW_MESSAGE, UNUSED_CONFIG_MESSAGE,
  configTwiceMessage, subFlowTwiceMessage, unknownConfigMessage, unknownSubFlowMessage,
} from '../../src/realm/flows/upstream.js';
import { ONE_STEP_MESSAGE } from '../../src/realm/flows/spec.js';
import { CLIENT_SCOPE_MAPPINGS_NOTE, twiceMessage } from '../../src/realm/scope-mappings/upstream.js';
import { ONE_TARGET_MESSAGE } from '../../src/realm/scope-mappings/spec.js';
import { baseSpec, decoded, realmObject } from './fixtures.js';

const refusal = (spec: Record<string, unknown>): string => {
  const result = decodeRealm(realmObject({ ...baseSpec, ...spec }));
  return isLeft(result) ? result.left.message : 'decoded';
};

const browserWithOtp = [
  {
    alias: 'company-browser', description: 'Cookie, then a form with OTP', providerId: 'basic-flow', topLevel: true, builtIn: false,
    authenticationExecutions: [
      { flowAlias: 'company-browser forms', authenticatorFlow: true, requirement: 'ALTERNATIVE', priority: 30 },
      { authenticator: 'auth-cookie', requirement: 'ALTERNATIVE', priority: 10, userSetupAllowed: false },
      { authenticator: 'identity-provider-redirector', requirement: 'ALTERNATIVE', priority: 20, authenticatorConfig: 'company-idp' },
    ],
    authenticatorConfig: [{ alias: 'company-idp', config: { defaultProvider: 'github' } }],
  },
  {
    alias: 'company-browser forms', description: 'Username, password and OTP', topLevel: false,
    authenticationExecutions: [
      { authenticator: 'auth-username-password-form', requirement: 'REQUIRED', priority: 10 },
      { flowAlias: 'company-browser otp', authenticatorFlow: true, requirement: 'CONDITIONAL', priority: 20 },
    ],
  },
  {
    alias: 'company-browser otp', topLevel: false,
    authenticationExecutions: [
      { authenticator: 'conditional-user-configured', requirement: 'REQUIRED', priority: 10 },
      { authenticator: 'auth-otp-form', requirement: 'REQUIRED', priority: 20 },
    ],
  },
];

describe('authentication flows in the Kopf operator\'s shape', () => {
  it('are read as Keyward\'s: steps by priority, sub-flows in the step that runs them, configs in their step', () => {
    const spec = decoded(realmObject({ ...baseSpec, authenticationFlows: browserWithOtp })).spec;
    expect(spec.authenticationFlows).toEqual([{
      alias: 'company-browser', description: 'Cookie, then a form with OTP', providerId: 'basic-flow',
      executions: [
        { authenticator: 'auth-cookie', requirement: 'ALTERNATIVE' },
        { authenticator: 'identity-provider-redirector', requirement: 'ALTERNATIVE', config: { alias: 'company-idp', config: { defaultProvider: 'github' } } },
        {
          requirement: 'ALTERNATIVE',
          subFlow: {
            alias: 'company-browser forms', description: 'Username, password and OTP',
            executions: [
              { authenticator: 'auth-username-password-form', requirement: 'REQUIRED' },
              {
                requirement: 'CONDITIONAL',
                subFlow: { alias: 'company-browser otp', executions: [{ authenticator: 'conditional-user-configured', requirement: 'REQUIRED' }, { authenticator: 'auth-otp-form', requirement: 'REQUIRED' }] },
              },
            ],
          },
        },
      ],
    }]);
    expect(spec.upstreamSpellings).toEqual([FLOWS_NOTE]);
  });

  it('keep the order listed for equal priorities, and a flow with only topLevel and builtIn as it is', () => {
    const spec = decoded(realmObject({
      ...baseSpec,
      authenticationFlows: [
        { alias: 'a', topLevel: true, builtIn: false, copyFrom: 'browser' },
        { alias: 'b', authenticationExecutions: [{ authenticator: 'x' }, { authenticator: 'y', priority: 0 }, { authenticator: 'w', priority: -1 }] },
      ],
    })).spec;
    expect(spec.authenticationFlows).toEqual([{ alias: 'a', copyFrom: 'browser' }, { alias: 'b', executions: [{ authenticator: 'w' }, { authenticator: 'x' }, { authenticator: 'y' }] }]);
  });

  it('in Keyward\'s own shape carry no note', () => {
    expect(decoded(realmObject({ ...baseSpec, authenticationFlows: [{ alias: 'a', executions: [{ authenticator: 'auth-cookie' }] }] })).spec).not.toHaveProperty('upstreamSpellings');
  });

  it.each([
    ['a built-in flow', [{ alias: 'mine', builtIn: true }], `spec.authenticationFlows[0].builtIn: ${BUILT_IN_FLOW_REFUSED_MESSAGE}`],
    ['both spellings of the steps', [{ alias: 'mine', executions: [], authenticationExecutions: [] }], `spec.authenticationFlows[0].authenticationExecutions: ${BOTH_STEP_SPELLINGS_MESSAGE}`],
    ['a sub-flow no step runs', [{ alias: 'mine' }, { alias: 'lost', topLevel: false }], `spec.authenticationFlows[1].topLevel: ${UNNAMED_SUB_FLOW_MESSAGE}`],
    ['a sub-flow two steps run', [
      { alias: 'mine', authenticationExecutions: [{ flowAlias: 'sub', authenticatorFlow: true }, { flowAlias: 'sub', authenticatorFlow: true }] },
      { alias: 'sub', topLevel: false },
    ], `spec.authenticationFlows[0].authenticationExecutions[1].flowAlias: ${subFlowTwiceMessage('sub')}`],
    ['a step running a flow the list has not', [{ alias: 'mine', authenticationExecutions: [{ flowAlias: 'nowhere', authenticatorFlow: true }] }], `spec.authenticationFlows[0].authenticationExecutions[0].flowAlias: ${unknownSubFlowMessage('nowhere')}`],
    ['a step running a top-level flow', [{ alias: 'mine', authenticationExecutions: [{ flowAlias: 'other', authenticatorFlow: true }] }, { alias: 'other' }], `spec.authenticationFlows[0].authenticationExecutions[0].flowAlias: ${unknownSubFlowMessage('other')}`],
    ['a flowAlias without authenticatorFlow', [{ alias: 'mine', authenticationExecutions: [{ authenticator: 'x', flowAlias: 'sub' }] }], `spec.authenticationFlows[0].authenticationExecutions[0].flowAlias: ${SUB_FLOW_MESSAGE}`],
    ['a step naming neither', [{ alias: 'mine', authenticationExecutions: [{ requirement: 'REQUIRED' }] }], `spec.authenticationFlows[0].authenticationExecutions[0]: ${ONE_STEP_MESSAGE}`],
    ['a config no list has', [{ alias: 'mine', authenticationExecutions: [{ authenticator: 'x', authenticatorConfig: 'nothing' }] }], `spec.authenticationFlows[0].authenticationExecutions[0].authenticatorConfig: ${unknownConfigMessage('nothing')}`],
    ['a config no step names', [{ alias: 'mine', authenticatorConfig: [{ alias: 'idle', config: {} }] }], `spec.authenticationFlows[0].authenticatorConfig[0].alias: ${UNUSED_CONFIG_MESSAGE}`],
    ['a config alias twice', [{ alias: 'mine', authenticatorConfig: [{ alias: 'c', config: {} }] }, { alias: 'other', authenticatorConfig: [{ alias: 'c', config: {} }] }], `spec.authenticationFlows[1].authenticatorConfig[0].alias: ${configTwiceMessage('c')}`],
    ['a sub-flow made as a copy', [{ alias: 'mine', authenticationExecutions: [{ flowAlias: 'sub', authenticatorFlow: true }] }, { alias: 'sub', topLevel: false, copyFrom: 'browser' }], `spec.authenticationFlows[1].copyFrom: ${SUB_FLOW_COPY_MESSAGE}`],
    ['a requirement Keycloak has not', [{ alias: 'mine', authenticationExecutions: [{ authenticator: 'x', requirement: 'OPTIONAL' }] }], 'spec.authenticationFlows[0].authenticationExecutions[0].requirement: expected one of REQUIRED, ALTERNATIVE, DISABLED, CONDITIONAL, got "OPTIONAL"'],
  ])('refuse %s, naming the field', (_case, authenticationFlows, message) => {
    expect(refusal({ authenticationFlows })).toBe(message);
  });

  it('are checked as Keyward\'s flows once read: a sub-flow alias a top-level flow has is refused', () => {
    expect(refusal({ authenticationFlows: [{ alias: 'a', authenticationExecutions: [{ flowAlias: 'b', authenticatorFlow: true }] }, { alias: 'b', topLevel: false }, { alias: 'b' }] }))
      .toContain('must be unique in the realm');
  });

  it('are in the schema, which refuses a built-in flow and both spellings of the steps', () => {
    const items = (keycloakRealmCrd.spec.versions[0].schema.openAPIV3Schema.properties.spec as { properties: Record<string, { items: { properties: Record<string, { type: string; 'x-kubernetes-validations'?: unknown }>; 'x-kubernetes-validations': unknown } }> }).properties['authenticationFlows']?.items;
    expect(Object.fromEntries(['topLevel', 'builtIn', 'authenticationExecutions', 'authenticatorConfig'].map((key) => [key, items?.properties[key]?.type]))).toEqual({ topLevel: 'boolean', builtIn: 'boolean', authenticationExecutions: 'array', authenticatorConfig: 'array' });
    expect(items?.properties['builtIn']?.['x-kubernetes-validations']).toEqual([{ rule: '!self', message: BUILT_IN_FLOW_REFUSED_MESSAGE }]);
    expect(items?.['x-kubernetes-validations']).toEqual([expect.objectContaining({ rule: '!(has(self.executions) && has(self.authenticationExecutions))', message: BOTH_STEP_SPELLINGS_MESSAGE })]);
  });
});

describe('scope mappings in the Kopf operator\'s shape', () => {
  it('read roles as realm roles and clientScopeMappings as client roles of the same targets', () => {
    const spec = decoded(realmObject({
      ...baseSpec,
      scopeMappings: [{ clientScope: 'reports', roles: ['reader'] }, { client: 'shop-web', roles: ['buyer'] }],
      clientScopeMappings: {
        'shop-api': [{ clientScope: 'reports', roles: ['export'] }, { client: 'shop-admin', roles: ['manage'] }],
        billing: [{ clientScope: 'reports', roles: ['invoices'] }],
      },
    })).spec;
    expect(spec.scopeMappings).toEqual([
      { clientScope: 'reports', realmRoles: ['reader'], clientRoles: { 'shop-api': ['export'], billing: ['invoices'] } },
      { client: 'shop-web', realmRoles: ['buyer'] },
      { client: 'shop-admin', clientRoles: { 'shop-api': ['manage'] } },
    ]);
    expect(spec.upstreamSpellings).toEqual(['scopeMappings[].roles is read as scopeMappings[].realmRoles', CLIENT_SCOPE_MAPPINGS_NOTE]);
  });

  it('take clientScopeMappings next to Keyward\'s clientRoles of other clients', () => {
    const spec = decoded(realmObject({ ...baseSpec, scopeMappings: [{ client: 'web', clientRoles: { a: ['x'] } }], clientScopeMappings: { b: [{ client: 'web', roles: ['y'] }] } })).spec;
    expect(spec.scopeMappings).toEqual([{ client: 'web', clientRoles: { a: ['x'], b: ['y'] } }]);
  });

  it.each([
    ['roles next to realmRoles', { scopeMappings: [{ client: 'web', roles: ['a'], realmRoles: ['a'] }] }, 'spec.scopeMappings[0].roles: scopeMappings[].roles and scopeMappings[].realmRoles are the same field (the first is the Kopf operator\'s spelling): state one of them'],
    ['one client\'s roles for one target stated twice', { scopeMappings: [{ client: 'web', clientRoles: { api: ['x'] } }], clientScopeMappings: { api: [{ client: 'web', roles: ['y'] }] } }, `spec.clientScopeMappings.api[0]: ${twiceMessage('api')}`],
    ['an entry with both targets', { clientScopeMappings: { api: [{ client: 'web', clientScope: 'reports', roles: ['y'] }] } }, `spec.clientScopeMappings.api[0]: ${ONE_TARGET_MESSAGE}`],
    ['a built-in client scope', { clientScopeMappings: { api: [{ clientScope: 'profile', roles: ['y'] }] } }, `spec.clientScopeMappings.api[0].clientScope: ${BUILT_IN_SCOPE_MESSAGE}`],
    ['a role name twice', { clientScopeMappings: { api: [{ client: 'web', roles: ['y', 'y'] }] } }, 'spec.clientScopeMappings.api[0].roles[1]: duplicate'],
  ])('refuse %s, naming the field', (_case, spec, message) => {
    expect(refusal(spec)).toContain(message);
  });

  it('are in the schema: roles beside realmRoles, refused together; clientScopeMappings by clientId', () => {
    const spec = keycloakRealmCrd.spec.versions[0].schema.openAPIV3Schema.properties.spec as { properties: Record<string, { type: string; items?: { properties: Record<string, { type: string }>; 'x-kubernetes-validations': { rule: string }[] }; additionalProperties?: { items: { oneOf: unknown } } }> };
    const items = spec.properties['scopeMappings']?.items;
    expect(items?.properties['roles']?.type).toBe('array');
    expect(items?.['x-kubernetes-validations'].map(({ rule }) => rule)).toContain('!(has(self.roles) && has(self.realmRoles))');
    expect(spec.properties['clientScopeMappings']?.type).toBe('object');
    expect(spec.properties['clientScopeMappings']?.additionalProperties?.items.oneOf).toEqual([{ required: ['client'] }, { required: ['clientScope'] }]);
  });
});
