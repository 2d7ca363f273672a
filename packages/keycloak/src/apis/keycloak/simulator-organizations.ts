import { KeywardError } from '@keyward/vocabulary/interpreter';
import type { KeycloakJson, OrganizationRepresentation } from './representations.js';

// The organizations of the in-memory Keycloak, with the behaviour of Keycloak 26.7 that Keyward relies on:
// none while the realm has them disabled (404), the alias taken from the name when none is given and never
// changed (400), a name, alias (409) or domain (400) held by one organization only, and a PUT that replaces an
// organization whole (`enabled` true unless sent) but keeps its attributes when it has none.

type Rep = Record<string, KeycloakJson | undefined>;

function fail(code: number, message: string): never {
  throw new KeywardError({ api: 'keycloak', code, reason: code === 409 ? 'Conflict' : code === 404 ? 'NotFound' : 'BadRequest', message, retryable: false });
}

const text = (value: KeycloakJson | undefined): string => (typeof value === 'string' ? value : '');
const domainsOf = (rep: Rep): Rep[] => (Array.isArray(rep['domains']) ? (rep['domains'] as Rep[]) : []);

export class SimulatedOrganizations {
  readonly #byRealm = new Map<string, Map<string, Rep>>();
  readonly #newId: () => string;
  readonly #enabled: (realm: string) => boolean;

  constructor(newId: () => string, enabled: (realm: string) => boolean) {
    this.#newId = newId;
    this.#enabled = enabled;
  }

  #of(realm: string): Map<string, Rep> {
    if (!this.#enabled(realm)) fail(404, 'Organizations not enabled for this realm.');
    const found = this.#byRealm.get(realm) ?? new Map<string, Rep>();
    this.#byRealm.set(realm, found);
    return found;
  }

  #check(organizations: Map<string, Rep>, rep: Rep, id: string): void {
    const others = [...organizations.values()].filter((other) => other['id'] !== id);
    if (others.some((other) => other['name'] === rep['name'])) fail(409, 'A organization with the same name already exists.');
    if (others.some((other) => other['alias'] === rep['alias'])) fail(409, 'A organization with the same alias already exists');
    const taken = new Set(others.flatMap((other) => domainsOf(other).map((domain) => text(domain['name']).toLowerCase())));
    const clash = domainsOf(rep).find((domain) => taken.has(text(domain['name']).toLowerCase()));
    if (clash !== undefined) fail(400, `Domain ${text(clash['name'])} is already linked to another organization`);
  }

  #stored(body: Rep, id: string, attributes: KeycloakJson | undefined): Rep {
    const domains = domainsOf(body).map((domain) => ({ name: text(domain['name']), verified: domain['verified'] === true }));
    const { members: _members, identityProviders: _links, ...rest } = body;
    return { ...rest, id, enabled: body['enabled'] ?? true, domains, attributes: body['attributes'] ?? attributes ?? {} };
  }

  create(realm: string, body: Rep): string {
    const organizations = this.#of(realm);
    const id = this.#newId();
    const rep = this.#stored({ ...body, alias: body['alias'] ?? body['name'] }, id, undefined);
    this.#check(organizations, rep, id);
    organizations.set(id, rep);
    return id;
  }

  update(realm: string, id: string, body: Rep): void {
    const organizations = this.#of(realm);
    const current = organizations.get(id) ?? fail(404, 'Organization not found');
    if (body['alias'] !== current['alias']) fail(400, 'Cannot change the alias');
    const rep = this.#stored(body, id, current['attributes']);
    this.#check(organizations, rep, id);
    organizations.set(id, rep);
  }

  delete(realm: string, id: string): boolean {
    return this.#of(realm).delete(id);
  }

  drop(realm: string): void {
    this.#byRealm.delete(realm);
  }

  /** What the list shows with briefRepresentation=false; undefined while the realm has them disabled. */
  observe(realm: string): OrganizationRepresentation[] | undefined {
    if (!this.#enabled(realm)) return undefined;
    return [...(this.#byRealm.get(realm)?.values() ?? [])].map((rep) => ({ ...rep, id: text(rep['id']), name: text(rep['name']), alias: text(rep['alias']) }));
  }

  /** Changes an organization (by alias) out of band, as a person in the admin console would. */
  edit(realm: string, alias: string, change: (rep: Rep) => void): void {
    const found = [...this.#of(realm).values()].find((rep) => rep['alias'] === alias) ?? fail(404, `organization ${alias} not found`);
    change(found);
  }
}
