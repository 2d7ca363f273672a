import { describe, expect, it } from '@jest/globals';
import { resolveFlowOverrides } from '../../src/client/flow-overrides.js';
import { clientChanges, creationBody, desiredClient } from '../../src/client/representation.js';
import type { KeycloakClientSpec } from '../../src/client/spec.js';

const flows = [{ id: 'f-browser', alias: 'browser' }, { id: 'f-dg', alias: 'direct grant' }, { id: 'f-strict', alias: 'strict browser' }];
const spec = (authenticationFlowOverrides?: KeycloakClientSpec['authenticationFlowOverrides']): KeycloakClientSpec =>
  ({ clientId: 'shop', realmRef: { name: 'shared' }, deletionPolicy: 'Delete', ...(authenticationFlowOverrides === undefined ? {} : { authenticationFlowOverrides }) });
const owner = { namespace: 'team-a', name: 'shop' };

describe('resolveFlowOverrides', () => {
  it('names flows by id, and removes the override the spec leaves out', () => {
    expect(resolveFlowOverrides(spec({ browser: 'strict browser' }), flows, 'shop')).toEqual({ ok: true, overrides: { browser: 'f-strict', direct_grant: '' } });
  });

  it('manages nothing when the spec states no overrides', () => {
    expect(resolveFlowOverrides(spec(), undefined, 'shop')).toEqual({ ok: true, overrides: undefined });
  });

  it('names a flow the realm does not have, and the field that names it', () => {
    expect(resolveFlowOverrides(spec({ directGrant: 'otp grant' }), flows, 'shop')).toEqual({ ok: false, message: 'authentication flow "otp grant" (spec.authenticationFlowOverrides.directGrant) does not exist in realm shop' });
  });
});

describe('flow overrides in the client representation', () => {
  const overrides = { browser: 'f-strict', direct_grant: '' };

  it('are created with the overrides set, without the removals', () => {
    expect(creationBody('shop', desiredClient(spec({ browser: 'strict browser' }), owner, overrides))['authenticationFlowBindingOverrides']).toEqual({ browser: 'f-strict' });
  });

  it('compare equal when Keycloak has the set ones and none of the removed ones, else send both', () => {
    const desired = desiredClient(spec({ browser: 'strict browser' }), owner, overrides);
    expect(clientChanges(desired, { clientId: 'shop', attributes: desired.attributes, authenticationFlowBindingOverrides: { browser: 'f-strict' } }).changed).toEqual([]);
    const stale = clientChanges(desired, { clientId: 'shop', attributes: desired.attributes, authenticationFlowBindingOverrides: { browser: 'f-strict', direct_grant: 'f-dg' } });
    expect(stale).toEqual({ body: { authenticationFlowBindingOverrides: overrides }, changed: ['authenticationFlowBindingOverrides'] });
  });
});
