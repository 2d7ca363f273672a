import { describe, expect, it } from '@jest/globals';
import { PlanBuilder } from '@keyward/kernel';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import { mergedList, planClientPolicies, policyRepresentation, profileRepresentation } from '../../src/realm/client-policies.js';
import type { RealmManaged } from '../../src/realm/managed.js';
import { RealmSpecCodec, type KeycloakRealmSpec } from '../../src/realm/spec.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';

const call = { server: { url: 'http://keycloak.test', credentials: { namespace: 'keyward-system', name: 'admin' } }, chargeTo: 'platform' };

const pkce = { name: 'pkce', executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': true } }] };
const outOfBand = { name: 'by-hand', executors: [{ executor: 'full-scope-disabled', configuration: {} }] };
const policy = { name: 'confidential-pkce', enabled: true, conditions: [{ condition: 'client-access-type', configuration: { type: ['confidential'] } }], profiles: ['pkce'] };
const spec = (extra: Partial<KeycloakRealmSpec>): KeycloakRealmSpec => ({ realmName: 'shop', deletionPolicy: 'Delete', ...extra });
const realmWith = (profiles: readonly object[], policies: readonly object[] = []) => ({ realm: 'shop', clientProfiles: { profiles }, clientPolicies: { policies } }) as never;

function plan(wanted: KeycloakRealmSpec, realm: never, managed?: RealmManaged): { steps: KeycloakAction[]; managed: RealmManaged } {
  const builder = new PlanBuilder<KeycloakRealmAction>();
  const now = planClientPolicies({ plan: builder, call, realm: 'shop' }, wanted, realm, managed);
  return { steps: builder.build().steps.map((step) => step.action as KeycloakAction), managed: now };
}

describe('mergedList', () => {
  it('replaces ours in place, drops what we made and no longer list, keeps the rest, appends the new', () => {
    const a = { name: 'a', v: 1 };
    const b = { name: 'b', v: 1 };
    const old = { name: 'old', v: 1 };
    expect(mergedList([a, old, b], [{ name: 'a', v: 2 }, { name: 'new', v: 1 }], ['a', 'old'])).toEqual([{ name: 'a', v: 2 }, b, { name: 'new', v: 1 }]);
  });
});

describe('planClientPolicies', () => {
  it('sends each list with executors and conditions always configured, profiles before policies, and records the names', () => {
    const { steps, managed } = plan(spec({ clientProfiles: [pkce], clientPolicies: [policy] }), realmWith([outOfBand]));
    expect(steps.map((step) => step.kind === 'keycloak.update' ? [step.resource.type, step.body, step.changed] : step.kind)).toEqual([
      ['clientProfiles', { profiles: [outOfBand, pkce] }, ['pkce (added)']],
      ['clientPolicies', { policies: [policy] }, ['confidential-pkce (added)']],
    ]);
    expect(managed).toEqual({ clientProfiles: ['pkce'], clientPolicies: ['confidential-pkce'] });
  });

  it('writes nothing once Keycloak holds the lists, whatever else it holds', () => {
    const converged = realmWith([profileRepresentation(pkce), outOfBand], [policyRepresentation(policy)]);
    expect(plan(spec({ clientProfiles: [pkce], clientPolicies: [policy] }), converged, { clientProfiles: ['pkce'], clientPolicies: ['confidential-pkce'] }).steps).toEqual([]);
  });

  it('repairs a profile changed out of band, naming it but not its configuration', () => {
    const changed = { ...pkce, executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': false } }] };
    const { steps } = plan(spec({ clientProfiles: [pkce] }), realmWith([changed, outOfBand]), { clientProfiles: ['pkce'] });
    expect(steps).toMatchObject([{ kind: 'keycloak.update', body: { profiles: [pkce, outOfBand] }, changed: ['pkce (changed)'] }]);
  });

  it('removes what it made from a list that names others, or that pruneUnlisted names, and leaves an empty or absent list alone', () => {
    const replaced = plan(spec({ clientProfiles: [{ name: 'other', executors: [] }] }), realmWith([pkce, outOfBand]), { clientProfiles: ['pkce'] });
    expect(replaced.steps).toMatchObject([{ body: { profiles: [outOfBand, { name: 'other' }] }, changed: ['other (added)', 'pkce (removed)'] }]);
    const removed = plan(spec({ pruneUnlisted: ['clientProfiles'] }), realmWith([pkce, outOfBand]), { clientProfiles: ['pkce'] });
    expect(removed.steps).toMatchObject([{ body: { profiles: [outOfBand] }, changed: ['pkce (removed)'] }]);
    expect(removed.managed).toEqual({});
    for (const untouchedSpec of [spec({}), spec({ clientProfiles: [] }), spec({ pruneUnlisted: ['clientPolicies'] })]) {
      const untouched = plan(untouchedSpec, realmWith([pkce, outOfBand]), { clientProfiles: ['pkce'] });
      expect(untouched.steps).toEqual([]);
      expect(untouched.managed).toEqual({ clientProfiles: ['pkce'] });
    }
  });

  it('a policy stated without enabled, and an executor without configuration, are sent enabled and with {}: Keycloak reads an absent enabled as false and fails on an absent configuration', () => {
    const decoded = RealmSpecCodec.decode({ realmName: 'shop', clientProfiles: [{ name: 'p', executors: [{ executor: 'pkce-enforcer' }] }], clientPolicies: [{ name: 'q', conditions: [], profiles: ['p'] }] });
    if (decoded._tag === 'Left') throw new Error('the spec should decode');
    const { steps } = plan(decoded.right, realmWith([]));
    expect(steps).toMatchObject([
      { body: { profiles: [{ name: 'p', executors: [{ executor: 'pkce-enforcer', configuration: {} }] }] } },
      { body: { policies: [{ name: 'q', enabled: true, conditions: [], profiles: ['p'] }] } },
    ]);
  });

  it('a profile without executors and a policy without conditions or profiles, as the Kopf operator allowed them, are sent with empty lists', () => {
    const decoded = RealmSpecCodec.decode({ realmName: 'shop', clientProfiles: [{ name: 'p' }], clientPolicies: [{ name: 'q' }] });
    if (decoded._tag === 'Left') throw new Error('the spec should decode');
    expect(plan(decoded.right, realmWith([])).steps).toMatchObject([
      { body: { profiles: [{ name: 'p', executors: [] }] } },
      { body: { policies: [{ name: 'q', enabled: true, conditions: [], profiles: [] }] } },
    ]);
  });
});
