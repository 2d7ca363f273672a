import { KeywardError } from '@keyward/kernel/interpreter';
import type { KeycloakJson, OrganizationRepresentation } from './representations.js';

// The organizations of the in-memory Keycloak, with the behaviour of Keycloak 26.7 that Keyward relies on:
// none while the realm has them disabled (404), the alias taken from the name when none is given and never
// changed (400), a name, alias (409) or domain (400) held by one organization only, and a PUT that replaces an
// organization whole (`enabled` true unless sent) but keeps its attributes when it has none; an identity
// provider linked to one organization at most (400 for an unknown one or another organization's, 409 again).

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
  readonly #providerExists: (realm: string, alias: string) => boolean;
  /** Linked identity provider aliases, by realm and organization id. */
  readonly #links = new Map<string, Map<string, Set<string>>>();

  constructor(newId: () => string, enabled: (realm: string) => boolean, providerExists: (realm: string, alias: string) => boolean) {
    this.#newId = newId;
    this.#enabled = enabled;
    this.#providerExists = providerExists;
  }

  #linksOf(realm: string): Map<string, Set<string>> {
    const found = this.#links.get(realm) ?? new Map<string, Set<string>>();
    this.#links.set(realm, found);
    return found;
  }

  link(realm: string, id: string, alias: string): string {
    if (!this.#of(realm).has(id)) fail(404, 'Organization not found');
    if (!this.#providerExists(realm, alias)) fail(400, 'Identity provider not found with the given alias');
    const links = this.#linksOf(realm);
    if (links.get(id)?.has(alias) === true) fail(409, 'Identity provider already associated to the organization');
    if ([...links.values()].some((linked) => linked.has(alias))) fail(400, 'Identity provider already associated with a different organization');
    links.set(id, (links.get(id) ?? new Set()).add(alias));
    return alias;
  }

  unlink(realm: string, id: string, alias: string): boolean {
    return this.#links.get(realm)?.get(id)?.delete(alias) ?? false;
  }

  /** The providers linked to each organization of `aliases` that exists and whose providers still do. */
  linked(realm: string, aliases: readonly string[]): Record<string, string[]> {
    const organizations = [...(this.#byRealm.get(realm)?.values() ?? [])].filter((rep) => aliases.includes(text(rep['alias'])));
    return Object.fromEntries(organizations.map((rep) => [text(rep['alias']), [...(this.#links.get(realm)?.get(text(rep['id'])) ?? [])].filter((alias) => this.#providerExists(realm, alias))]));
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
    this.#links.get(realm)?.delete(id);
    return this.#of(realm).delete(id);
  }

  drop(realm: string): void {
    this.#byRealm.delete(realm);
    this.#links.delete(realm);
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
