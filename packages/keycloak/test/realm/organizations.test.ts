import { describe, expect, it } from '@jest/globals';
import { PlanBuilder, type Plan } from '@keyward/kernel';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import type { OrganizationRepresentation } from '../../src/apis/keycloak/representations.js';
import { MANAGED_BY } from '../../src/ownership.js';
import { ORGANIZATIONS_FOLLOW_UP_MS, planOrganizations } from '../../src/realm/organizations/plan.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decodeRealm } from '../../src/realm/decode.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { observe } from '../../src/realm/observe.js';
import { baseSpec, config, decoded, observedRealm, plan, realmObject } from './fixtures.js';

const marker = { [MANAGED_BY]: ['keyward'] };
const keycloakSteps = (p: Plan<KeycloakRealmAction>): KeycloakAction[] => p.steps.map((s) => s.action).filter((a): a is KeycloakAction => a.kind.startsWith('keycloak.'));
const readyOf = (p: Plan<KeycloakRealmAction>): Record<string, unknown> | undefined => {
  const step = p.steps.find((s) => s.action.kind === 'k8s.status');
  const status = step?.action.kind === 'k8s.status' ? step.action.status as { conditions?: Record<string, unknown>[] } : undefined;
  return status?.conditions?.find((c) => c['type'] === 'Ready');
};

const acme = { name: 'Acme Inc', alias: 'acme', description: 'Customers', redirectUrl: 'https://acme.example.com', domains: [{ name: 'acme.example.com', verified: true }, { name: 'acme.example.org' }], attributes: { tier: ['gold'] } };
const spec = { ...baseSpec, organizationsEnabled: true, organizations: [acme] };

/** Acme as Keycloak 26.7 lists it with briefRepresentation=false once created from the spec. */
const keycloakAcme = (change: Partial<OrganizationRepresentation> = {}): OrganizationRepresentation => ({
  id: 'org-1', name: 'Acme Inc', alias: 'acme', enabled: true, description: 'Customers', redirectUrl: 'https://acme.example.com',
  attributes: { tier: ['gold'], ...marker }, domains: [{ name: 'acme.example.org', verified: false }, { name: 'acme.example.com', verified: true }], ...change,
});
const handMade: OrganizationRepresentation = { id: 'org-9', name: 'By hand', alias: 'by-hand', enabled: true, attributes: {}, domains: [] };
const ourOld: OrganizationRepresentation = { id: 'org-2', name: 'old', alias: 'old', enabled: true, attributes: marker, domains: [{ name: 'old.example.com', verified: false }] };

const realmWith = (organizations: OrganizationRepresentation[] | undefined, enabled = true) =>
  observedRealm({ realmFields: { organizationsEnabled: enabled }, ...(organizations === undefined ? {} : { organizations }) });

describe('the organizations of a realm', () => {
  it('are created with the fields the spec states and our marker in their attributes', () => {
    expect(keycloakSteps(plan(realmObject(spec), { realm: realmWith([]) }))).toEqual([expect.objectContaining({
      kind: 'keycloak.create',
      resource: { type: 'organization', realm: 'shop', alias: 'acme' },
      body: { name: 'Acme Inc', alias: 'acme', description: 'Customers', redirectUrl: 'https://acme.example.com', domains: [{ name: 'acme.example.com', verified: true }, { name: 'acme.example.org', verified: false }], attributes: { tier: ['gold'], ...marker } },
    })]);
  });

  it('take the name as alias when none is given, as Keycloak does', () => {
    const steps = keycloakSteps(plan(realmObject({ ...spec, organizations: [{ name: 'beta' }] }), { realm: realmWith([]) }));
    expect(steps).toEqual([expect.objectContaining({ resource: { type: 'organization', realm: 'shop', alias: 'beta' }, body: { name: 'beta', alias: 'beta', attributes: marker } })]);
  });

  it('plan nothing once Keycloak holds them as the spec says (domains in any order, verified false unless set)', () => {
    const p = plan(realmObject(spec), { realm: realmWith([keycloakAcme(), handMade]) });
    expect(keycloakSteps(p)).toEqual([]);
    expect(readyOf(p)).toMatchObject({ status: 'True' });
  });

  it('send one that differs whole: Keycloak\'s organization with the spec\'s fields over it, naming only what differs', () => {
    const current = keycloakAcme({ description: 'changed by hand', enabled: false, attributes: { tier: ['silver'], extra: ['x'], ...marker }, domains: [{ name: 'acme.example.com', verified: true }] });
    expect(keycloakSteps(plan(realmObject({ ...spec, organizations: [{ ...acme, description: undefined }] }), { realm: realmWith([current]) }))).toEqual([expect.objectContaining({
      kind: 'keycloak.update',
      resource: { type: 'organization', realm: 'shop', alias: 'acme', id: 'org-1' },
      changed: ['domains', 'attributes'],
      body: { ...current, domains: [{ name: 'acme.example.com', verified: true }, { name: 'acme.example.org', verified: false }], attributes: { tier: ['gold'], ...marker } },
    })]);
    const stated = keycloakSteps(plan(realmObject({ ...spec, organizations: [{ ...acme, enabled: true }] }), { realm: realmWith([current]) }));
    expect(stated).toEqual([expect.objectContaining({ changed: ['description', 'enabled', 'domains', 'attributes'] })]);
  });

  it('keep the attributes and domains Keycloak has when the spec states none, adding only the marker', () => {
    const steps = keycloakSteps(plan(realmObject({ ...spec, organizations: [{ name: 'Acme Inc', alias: 'acme' }] }), { realm: realmWith([keycloakAcme({ attributes: { tier: ['gold'] } })]) }));
    expect(steps).toEqual([expect.objectContaining({ changed: ['attributes'], body: expect.objectContaining({ attributes: { tier: ['gold'], ...marker }, domains: keycloakAcme().domains }) })]);
  });

  it('delete those that carry our marker and are no longer listed, before any update or creation; one made by hand stays', () => {
    const moved = { name: 'new', domains: [{ name: 'old.example.com' }] };
    const steps = keycloakSteps(plan(realmObject({ ...spec, organizations: [moved, acme] }), { realm: realmWith([ourOld, handMade, keycloakAcme()]) }));
    expect(steps.map((s) => [s.kind, 'resource' in s ? s.resource : undefined])).toEqual([
      ['keycloak.delete', { type: 'organization', realm: 'shop', alias: 'old', id: 'org-2' }],
      ['keycloak.create', { type: 'organization', realm: 'shop', alias: 'new' }],
    ]);
  });

  it('let go of a domain before another organization takes it', () => {
    const a = { name: 'a', domains: [{ name: 'a.example.com' }, { name: 'moving.example.com' }] };
    const b = { name: 'b', domains: [{ name: 'b.example.com' }] };
    const observed = [
      { id: 'org-a', name: 'a', alias: 'a', attributes: marker, domains: [{ name: 'a.example.com' }] },
      { id: 'org-b', name: 'b', alias: 'b', attributes: marker, domains: [{ name: 'b.example.com' }, { name: 'moving.example.com' }] },
    ];
    const steps = keycloakSteps(plan(realmObject({ ...spec, organizations: [a, b] }), { realm: realmWith(observed) }));
    expect(steps.map((s) => ('resource' in s && s.resource.type === 'organization' ? s.resource.alias : ''))).toEqual(['b', 'a']);
  });

  it('with an empty or absent list manage nothing and read nothing, unless unlisted ones are to be pruned anyway', () => {
    for (const organizations of [[], undefined]) {
      const p = plan(realmObject({ ...spec, organizations }), { realm: realmWith([ourOld]) });
      expect(keycloakSteps(p)).toEqual([]);
    }
    const steps = new PlanBuilder<KeycloakRealmAction>();
    const call = { server: { url: config.keycloakUrl ?? '', credentials: { namespace: 'ns', name: 'admin' } }, chargeTo: 'shop' };
    planOrganizations({ plan: steps, call, realm: 'shop' }, [], [ourOld, handMade], true);
    expect(steps.build().steps.map((s) => s.action)).toEqual([expect.objectContaining({ kind: 'keycloak.delete', resource: { type: 'organization', realm: 'shop', alias: 'old', id: 'org-2' } })]);
    const listed = new PlanBuilder<KeycloakRealmAction>();
    planOrganizations({ plan: listed, call, realm: 'shop' }, [], [ourOld, handMade], false);
    expect(listed.build().steps).toEqual([]);
    // pruneUnlisted naming organizations: an absent list removes ours.
    const pruning = plan(realmObject({ ...spec, organizations: undefined, pruneUnlisted: ['organizations'] }), { realm: realmWith([ourOld, handMade]) });
    expect(keycloakSteps(pruning)).toEqual([expect.objectContaining({ kind: 'keycloak.delete', resource: expect.objectContaining({ type: 'organization', alias: 'old' }) as unknown })]);
  });

  it('are made with a realm created in the same plan when the spec enables organizations', () => {
    const steps = keycloakSteps(plan(realmObject(spec), { realm: undefined }));
    expect(steps.map((s) => ('resource' in s ? s.resource.type : ''))).toEqual(['realm', 'organization']);
  });

  it('wait for a reconcile soon after the one that enables organizations, when they can be read', () => {
    const p = plan(realmObject(spec), { realm: realmWith(undefined, false) });
    expect(keycloakSteps(p)).toEqual([expect.objectContaining({ kind: 'keycloak.update', resource: { type: 'realm', realm: 'shop' }, changed: ['organizationsEnabled'] })]);
    expect(p.steps.map((s) => s.action)).toContainEqual({ kind: 'control.requeueAfter', afterMs: ORGANIZATIONS_FOLLOW_UP_MS });
  });

  it('stall the realm, naming the field to set, when listed while organizations are disabled', () => {
    for (const [organizationsEnabled, realm] of [[false, realmWith(undefined, false)], [undefined, realmWith(undefined, false)], [undefined, undefined]] as const) {
      const p = plan(realmObject({ ...spec, organizationsEnabled }), { realm });
      expect(keycloakSteps(p).filter((s) => 'resource' in s && s.resource.type === 'organization')).toEqual([]);
      expect(readyOf(p)).toMatchObject({ status: 'False', reason: 'OrganizationsDisabled', message: expect.stringContaining('set spec.organizationsEnabled to true') });
    }
  });
});

describe('the organizations codec', () => {
  const message = (organizations: unknown): string => {
    const result = decodeRealm(realmObject({ ...baseSpec, organizations }));
    return isLeft(result) ? result.left.message : 'accepted';
  };
  it('accepts a full organization', () => { expect(message([acme])).toBe('accepted'); });
  it('refuses a name that cannot be the alias, without an alias', () => {
    expect(message([{ name: 'Acme Inc' }])).toContain('spec.organizations[0].name: without alias, the name is the alias');
  });
  it('refuses the same alias twice, even from a name', () => { expect(message([{ name: 'acme' }, { name: 'Other', alias: 'acme' }])).toContain('spec.organizations[1]: duplicate of spec.organizations[0] ("acme")'); });
  it('refuses a domain listed by two organizations', () => {
    expect(message([{ name: 'a', domains: [{ name: 'x.example.com' }] }, { name: 'b', domains: [{ name: 'X.example.com' }] }])).toContain('spec.organizations[1].domains: domain X.example.com is listed by another organization');
  });
  it('refuses a bad domain name', () => { expect(message([{ name: 'a', domains: [{ name: 'not a domain' }] }])).toContain('spec.organizations[0].domains[0].name'); });
});

describe('the identity providers linked to an organization', () => {
  const linking = (...aliases: string[]) => ({ ...acme, identityProviders: aliases.map((alias) => ({ alias })) });
  const realmLinked = (links: Record<string, string[]>) => observedRealm({ realmFields: { organizationsEnabled: true }, organizations: [keycloakAcme()], organizationLinks: links });
  const linkSteps = (p: Plan<KeycloakRealmAction>) => keycloakSteps(p).filter((s) => 'resource' in s && s.resource.type === 'organizationIdentityProvider').map((s) => [s.kind, 'resource' in s && s.resource.type === 'organizationIdentityProvider' ? s.resource.alias : '']);

  it('are read only for organizations that list some', () => {
    const query = (organizations: unknown[]) => (observe(decoded(realmObject({ ...spec, organizations })), config).realm);
    expect(query([linking('upstream'), { name: 'beta' }])).toMatchObject({ organizations: true, organizationLinksOf: ['acme'] });
    expect(query([{ name: 'beta' }])).not.toHaveProperty('organizationLinksOf');
    expect(query([])).not.toHaveProperty('organizations');
  });

  it('are linked when listed and unlinked when no longer listed, by the organization\'s id', () => {
    const p = plan(realmObject({ ...spec, organizations: [linking('upstream', 'corp')] }), { realm: realmLinked({ acme: ['corp', 'old'] }) });
    expect(linkSteps(p)).toEqual([['keycloak.delete', 'old'], ['keycloak.create', 'upstream']]);
    expect(keycloakSteps(p)).toContainEqual(expect.objectContaining({ resource: { type: 'organizationIdentityProvider', realm: 'shop', organization: { alias: 'acme', id: 'org-1' }, alias: 'upstream' } }));
  });

  it('plan nothing once linked as listed, and are left alone when the organization lists none', () => {
    expect(linkSteps(plan(realmObject({ ...spec, organizations: [linking('upstream')] }), { realm: realmLinked({ acme: ['upstream'] }) }))).toEqual([]);
    expect(linkSteps(plan(realmObject(spec), { realm: realmLinked({ acme: ['by-hand'] }) }))).toEqual([]);
  });

  it('of a new organization are linked in the same plan, after it is made', () => {
    const p = plan(realmObject({ ...spec, organizations: [linking('upstream')] }), { realm: realmWith([]) });
    const steps = keycloakSteps(p);
    expect(steps.map((s) => ('resource' in s ? s.resource.type : ''))).toEqual(['organization', 'organizationIdentityProvider']);
    const link = steps[1];
    expect(link?.kind === 'keycloak.create' && link.resource.type === 'organizationIdentityProvider' ? typeof link.resource.organization.id : undefined).toBe('object');
  });

  it('in a new realm wait for a provider the plan does not make yet (one naming a flow of the spec)', () => {
    const providers = [
      { alias: 'upstream', providerId: 'oidc' },
      { alias: 'brokered', providerId: 'oidc', firstBrokerLoginFlowAlias: 'my broker flow' },
    ];
    const p = plan(realmObject({ ...spec, identityProviders: providers, organizations: [linking('upstream', 'brokered')] }), { realm: undefined });
    expect(linkSteps(p)).toEqual([['keycloak.create', 'upstream']]);
  });

  it('are refused by the codec when two organizations link the same provider', () => {
    const result = decodeRealm(realmObject({ ...spec, organizations: [linking('upstream'), { name: 'beta', identityProviders: [{ alias: 'upstream' }] }] }));
    expect(isLeft(result) ? result.left.message : 'accepted').toContain('spec.organizations[1].identityProviders: identity provider upstream is listed by another organization');
  });
});
