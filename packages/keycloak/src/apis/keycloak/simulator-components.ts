import { KeywardError } from '@keyward/kernel/interpreter';
import { LDAP_MAPPER_PROVIDER_TYPE, USER_STORAGE_PROVIDER_TYPE, type ComponentRepresentation, type ObservedFederationProvider } from './components.js';
import type { KeycloakJson } from './representations.js';

// The components of the in-memory Keycloak (user federation providers and their mappers), with the behaviour
// of Keycloak 26 that Keyward relies on: a PUT keeps the config keys it leaves out, the bind credential shows
// masked (and a masked one sent back keeps the stored one), and deleting a provider deletes its mappers.

type Rep = Record<string, KeycloakJson | undefined>;
const MASK = '**********';
const SECRET_KEYS = new Set(['bindCredential']);

const notFound = (what: string): never => {
  throw new KeywardError({ api: 'keycloak', code: 404, reason: 'NotFound', message: `${what} not found`, retryable: false });
};

function configOf(rep: Rep): Record<string, string[]> {
  const config = rep['config'];
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return {};
  return Object.fromEntries(Object.entries(config).flatMap(([key, value]) => (Array.isArray(value) ? [[key, value.map(String)]] : [])));
}

const text = (value: KeycloakJson | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

export class SimulatedComponents {
  readonly #byRealm = new Map<string, Map<string, ComponentRepresentation>>();
  readonly #newId: () => string;

  constructor(newId: () => string) {
    this.#newId = newId;
  }

  #realm(realm: string): Map<string, ComponentRepresentation> {
    const found = this.#byRealm.get(realm) ?? new Map<string, ComponentRepresentation>();
    this.#byRealm.set(realm, found);
    return found;
  }

  create(realm: string, body: Rep): string {
    const id = this.#newId();
    const subType = text(body['subType']);
    const parentId = text(body['parentId']);
    const providerType = text(body['providerType']);
    this.#realm(realm).set(id, {
      id,
      name: text(body['name']) ?? '',
      providerId: text(body['providerId']) ?? '',
      ...(providerType === undefined ? {} : { providerType }),
      ...(parentId === undefined ? {} : { parentId }),
      ...(subType === undefined ? {} : { subType }),
      config: configOf(body),
    });
    return id;
  }

  update(realm: string, id: string, body: Rep): void {
    const current = this.#realm(realm).get(id) ?? notFound(`component ${id}`);
    const config: Record<string, readonly string[]> = { ...current.config };
    for (const [key, value] of Object.entries(configOf(body))) {
      if (SECRET_KEYS.has(key) && value[0] === MASK) continue;
      config[key] = value;
    }
    const subType = text(body['subType']) ?? current.subType;
    this.#realm(realm).set(id, { ...current, name: text(body['name']) ?? current.name, ...(subType === undefined ? {} : { subType }), config });
  }

  delete(realm: string, id: string): boolean {
    const components = this.#realm(realm);
    for (const child of [...components.values()].filter((c) => c.parentId === id)) components.delete(child.id);
    return components.delete(id);
  }

  #masked(component: ComponentRepresentation): ComponentRepresentation {
    const config: Record<string, readonly string[]> = { ...component.config };
    for (const key of SECRET_KEYS) if (config[key] !== undefined) config[key] = [MASK];
    return { ...component, config };
  }

  /** The stored value of a component's config key, unmasked, for tests. */
  storedConfig(realm: string, name: string, key: string): readonly string[] | undefined {
    return [...this.#realm(realm).values()].find((c) => c.name === name && c.providerType === USER_STORAGE_PROVIDER_TYPE)?.config?.[key];
  }

  observe(realm: string, mappersOf: readonly string[]): ObservedFederationProvider[] {
    const all = [...this.#realm(realm).values()];
    return all.filter((c) => c.providerType === USER_STORAGE_PROVIDER_TYPE).map((provider) => ({
      provider: this.#masked(provider),
      mappers: mappersOf.includes(provider.name) ? all.filter((c) => c.parentId === provider.id && c.providerType === LDAP_MAPPER_PROVIDER_TYPE).map((c) => this.#masked(c)) : undefined,
    }));
  }
}
