import { KeywardError } from '@keyward/kernel/interpreter';
import type { KeycloakResource } from './actions.js';
import type { AuthorizationResourceRepresentation, AuthorizationScopeRepresentation, ObservedAuthorization, ObservedPolicy, PolicyParts } from './authorization.js';
import type { KeycloakJson } from './representations.js';

type Rep = Record<string, KeycloakJson | undefined>;

const text = (value: KeycloakJson | undefined): string => (typeof value === 'string' ? value : '');
type AuthorizationResource = Extract<KeycloakResource, { readonly type: 'authorizationSettings' | 'authorizationScope' | 'authorizationResource' | 'authorizationPolicy' }>;

interface StoredServer {
  settings: Rep;
  scopes: Map<string, Rep>;
  resources: Map<string, Rep>;
  policies: Map<string, Rep>;
}

/** What a new resource server has (Keycloak 26 creates no default resource, policy or permission through the admin API). */
const NEW_SETTINGS: Rep = { policyEnforcementMode: 'ENFORCING', decisionStrategy: 'UNANIMOUS', allowRemoteResourceManagement: true };

function fail(code: number, reason: string, message: string): never {
  throw new KeywardError({ api: 'keycloak', code, reason, message, retryable: false });
}

/** The names in a list of `{name}` objects (a resource's scopes). */
function names(value: KeycloakJson | undefined): string[] {
  const items: readonly KeycloakJson[] = Array.isArray(value) ? value : [];
  const isObject = (item: KeycloakJson): item is Rep => typeof item === 'object' && item !== null && !Array.isArray(item);
  return items.map((item) => (isObject(item) && typeof item['name'] === 'string' ? item['name'] : ''));
}

function strings(value: KeycloakJson | undefined): string[] {
  const items: readonly KeycloakJson[] = Array.isArray(value) ? value : [];
  return items.map(text);
}
const entries = (value: KeycloakJson | undefined): Rep[] => (Array.isArray(value) ? value.filter((item): item is Rep => typeof item === 'object' && item !== null && !Array.isArray(item)) : []);

/** A stored policy as the list gives it, with its parts by name as Keycloak takes them (the real reads resolve ids). */
function observedPolicy(policy: Rep, detailed: boolean): ObservedPolicy {
  const listed = { id: text(policy['id']), name: text(policy['name']), type: text(policy['type']), description: text(policy['description']), logic: text(policy['logic']) || 'POSITIVE', decisionStrategy: text(policy['decisionStrategy']) || 'UNANIMOUS' };
  if (!detailed) return listed;
  const parts: Record<string, PolicyParts[keyof PolicyParts]> = {};
  switch (listed.type) {
    case 'role':
      parts['roles'] = entries(policy['roles']).map((role) => ({ name: text(role['id']), required: role['required'] === true }));
      parts['fetchRoles'] = policy['fetchRoles'] === true;
      break;
    case 'group':
      parts['groups'] = entries(policy['groups']).map((group) => ({ path: text(group['path']), extendChildren: group['extendChildren'] === true }));
      parts['groupsClaim'] = text(policy['groupsClaim']);
      break;
    case 'user':
    case 'client':
      parts[`${listed.type}s`] = strings(policy[`${listed.type}s`]);
      break;
    case 'time':
    case 'regex':
      // Kept as text, as Keycloak's config keeps them.
      for (const [key, value] of Object.entries(policy)) if (!(key in listed) && typeof value !== 'object') parts[key] = key === 'targetContextAttributes' ? value === true : String(value);
      break;
    default:
      for (const key of ['policies', 'resources', 'scopes']) parts[key] = strings(policy[key]);
      parts['resourceType'] = text(policy['resourceType']);
  }
  return { ...listed, parts };
}

/**
 * The authorization services of simulated clients, keyed by client id, with Keycloak 26's semantics: scopes
 * and resources are replaced whole by a PUT, a resource naming an unknown scope creates it, a scope a
 * resource uses cannot be deleted (400), and a duplicate resource name is a 409.
 */
export class SimulatedAuthorization {
  readonly #servers = new Map<string, StoredServer>();
  readonly #newId: (prefix: string) => string;

  constructor(newId: (prefix: string) => string) {
    this.#newId = newId;
  }

  #server(clientUuid: string): StoredServer {
    let server = this.#servers.get(clientUuid);
    if (server === undefined) {
      server = { settings: { ...NEW_SETTINGS }, scopes: new Map(), resources: new Map(), policies: new Map() };
      this.#servers.set(clientUuid, server);
    }
    return server;
  }

  #scopesFor(server: StoredServer, body: Rep): Rep[] {
    return names(body['scopes']).map((name) => {
      const found = [...server.scopes.values()].find((scope) => scope['name'] === name);
      if (found !== undefined) return { id: found['id'], name };
      const id = this.#newId('authz-scope');
      server.scopes.set(id, { id, name });
      return { id, name };
    });
  }

  create(clientUuid: string, resource: AuthorizationResource, body: Rep): string {
    const server = this.#server(clientUuid);
    if (resource.type === 'authorizationScope') {
      // Keycloak answers a duplicate scope name with the scope that exists.
      const existing = [...server.scopes.values()].find((scope) => scope['name'] === resource.name);
      if (existing !== undefined) return text(existing['id']);
      const id = this.#newId('authz-scope');
      server.scopes.set(id, { ...body, id, name: resource.name });
      return id;
    }
    if (resource.type === 'authorizationSettings') return fail(405, 'MethodNotAllowed', 'authorization settings are not created');
    if (resource.type === 'authorizationPolicy') return this.#createPolicy(server, resource, body);
    if ([...server.resources.values()].some((item) => item['name'] === resource.name)) fail(409, 'Conflict', `Resource with name [${resource.name}] already exists.`);
    const id = this.#newId('authz-resource');
    server.resources.set(id, { ...body, _id: id, name: resource.name, scopes: this.#scopesFor(server, body) });
    return id;
  }

  update(clientUuid: string, resource: AuthorizationResource, body: Rep): void {
    const server = this.#server(clientUuid);
    if (resource.type === 'authorizationSettings') {
      server.settings = { ...body };
      return;
    }
    const id = resource.id ?? '';
    if (resource.type === 'authorizationPolicy') {
      if (server.policies.get(id)?.['type'] !== resource.policyType) fail(404, 'NotFound', `${resource.name} not found`);
      server.policies.set(id, { ...body, id, name: resource.name, type: resource.policyType });
      return;
    }
    const items = resource.type === 'authorizationScope' ? server.scopes : server.resources;
    if (!items.has(id)) fail(404, 'NotFound', `${resource.name} not found`);
    items.set(id, resource.type === 'authorizationScope' ? { ...body, id, name: resource.name } : { ...body, _id: id, name: resource.name, scopes: this.#scopesFor(server, body) });
  }

  delete(clientUuid: string, resource: AuthorizationResource): boolean {
    const server = this.#server(clientUuid);
    if (resource.type === 'authorizationSettings') return fail(405, 'MethodNotAllowed', 'authorization settings are not deleted');
    const id = resource.id ?? '';
    if (resource.type === 'authorizationResource') return server.resources.delete(id);
    if (resource.type === 'authorizationPolicy') return server.policies.delete(id);
    const used = [...server.resources.values()].some((item) => names(item['scopes']).includes(text(server.scopes.get(id)?.['name'])));
    if (used) fail(400, 'BadRequest', 'Scopes can not be removed while associated with resources.');
    return server.scopes.delete(id);
  }

  #createPolicy(server: StoredServer, resource: Extract<AuthorizationResource, { readonly type: 'authorizationPolicy' }>, body: Rep): string {
    // Keycloak 26.7 has no JavaScript policy provider unless a script jar is deployed.
    if (resource.policyType === 'js') fail(404, 'NotFound', 'HTTP 404 Not Found');
    // Policies and permissions share one namespace of names.
    if ([...server.policies.values()].some((item) => item['name'] === resource.name)) fail(409, 'Conflict', `Policy with name [${resource.name}] already exists`);
    const id = this.#newId('authz-policy');
    server.policies.set(id, { ...body, id, name: resource.name, type: resource.policyType });
    return id;
  }

  /** `detailed`: the policies whose parts to give (by name, as a spec states them); undefined: no policies. */
  observe(clientUuid: string, detailed?: readonly string[]): ObservedAuthorization {
    const server = this.#server(clientUuid);
    return {
      settings: { ...server.settings },
      scopes: [...server.scopes.values()] as AuthorizationScopeRepresentation[],
      resources: [...server.resources.values()] as AuthorizationResourceRepresentation[],
      ...(detailed === undefined ? {} : { policies: [...server.policies.values()].map((policy) => observedPolicy(policy, detailed.includes(text(policy['name'])))) }),
    };
  }
}
