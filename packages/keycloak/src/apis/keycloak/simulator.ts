import { KeywardError, type HandlerContext, type HandlerTable, type QueryTable } from '@keyward/kernel/interpreter';
import type { SimulatedKubernetes } from '@keyward/kernel/testing';
import { sensitive } from '@keyward/kernel';
import { type Json } from '@keyward/kernel/plan';
import { ownershipOf } from '../../ownership.js';
import type { ClientAddress, KeycloakAction, KeycloakBody, KeycloakResource, RoleHolder, ScopeList, SecretFields } from './actions.js';
import { describeResource, keycloakApi } from './api.js';
import { SimulatedFlows } from './simulator-flows.js';
import { SimulatedAuthorization } from './simulator-authorization.js';
import { SimulatedOrganizations } from './simulator-organizations.js';
import type { KeycloakClientQuery, KeycloakQuery, ObservedClient, ObservedRealm } from './queries.js';
import type { ResourceOf, ResourceType } from './resource-types.js';
import { ReachWalk, type ObservedReach, type ReachRead, type RoleRef } from './role-reach.js';
import { isAdminClientRole } from '../../admin-roles.js';
import type { ObservedGroup } from './groups.js';
import { describeTarget, type ScopeMappingTarget } from './scope-mappings.js';
import { SimulatedComponents } from './simulator-components.js';
import type { ClientScopeRepresentation, KeycloakJson, KeycloakObject, ObservedIdentityProvider, ObservedRole, ProtocolMapperRepresentation, RoleNames } from './representations.js';

/** The realm fields that bind a flow by alias. */
const FLOW_BINDINGS = ['browserFlow', 'registrationFlow', 'directGrantFlow', 'resetCredentialsFlow', 'clientAuthenticationFlow', 'dockerAuthenticationFlow', 'firstBrokerLoginFlow'];

/** What a new realm binds its flows to. */
const BUILT_IN_BINDINGS = {
  browserFlow: 'browser', registrationFlow: 'registration', directGrantFlow: 'direct grant', resetCredentialsFlow: 'reset credentials',
  clientAuthenticationFlow: 'clients', dockerAuthenticationFlow: 'docker auth', firstBrokerLoginFlow: 'first broker login',
};

/** What Keycloak answers in place of a stored secret. */
export const MASKED = '**********';

type Rep = Record<string, KeycloakJson | undefined>;

interface StoredRole {
  rep: Rep;
  composites: { realm: Set<string>; clients: Map<string, Set<string>> };
}

interface StoredScope {
  rep: Rep;
  mappers: Map<string, Rep>;
}

interface StoredClient {
  rep: Rep;
  secret: string | undefined;
  mappers: Map<string, Rep>;
  roles: Map<string, StoredRole>;
  scopes: Record<ScopeList, Set<string>>;
  serviceAccount: StoredRole['composites'] | undefined;
}

interface StoredGroup {
  rep: Rep;
  /** Its parent's id; undefined at the top level. */
  parent: string | undefined;
  roles: StoredRole['composites'];
}

interface StoredRealm {
  rep: Rep;
  smtpPassword: string | undefined;
  roles: Map<string, StoredRole>;
  scopes: Map<string, StoredScope>;
  defaultScopes: Record<ScopeList, Set<string>>;
  clients: Map<string, StoredClient>;
  groups: Map<string, StoredGroup>;
  /** The ids of its default groups. */
  defaultGroups: Set<string>;
  /** The scope mappings of client scopes and clients, by targetKey. */
  scopeMappings: Map<string, StoredRole['composites']>;
  identityProviders: Map<string, StoredIdentityProvider>;
}

interface StoredIdentityProvider {
  rep: Rep;
  mappers: Map<string, Rep>;
}

/** The config key of an identity provider that Keycloak masks on reads and keeps when sent the mask. */
const IDP_SECRET_KEY = 'clientSecret';

/** The roles and client scopes Keycloak gives every new realm (a representative subset of 26's). */
const BUILT_IN_ROLES = ['offline_access', 'uma_authorization'];
const BUILT_IN_SCOPES: Readonly<Record<ScopeList, readonly string[]>> = {
  default: ['acr', 'basic', 'email', 'profile', 'roles', 'web-origins'],
  optional: ['address', 'microprofile-jwt', 'offline_access', 'phone'],
};

function fail(code: number, reason: string, message: string): never {
  throw new KeywardError({ api: 'keycloak', code, reason, message, retryable: code >= 500 });
}

const notFound = (what: string): never => fail(404, 'NotFound', `${what} not found`);

/** A field that holds text (names and ids always do). */
const text = (value: KeycloakJson | undefined): string => (typeof value === 'string' ? value : '');

const targetKey = (target: ScopeMappingTarget): string => ('clientScope' in target ? `clientScope:${target.clientScope}` : `client:${target.client}`);

function emptyRoles(): StoredRole['composites'] {
  return { realm: new Set(), clients: new Map() };
}

function namesOf(held: StoredRole['composites']): RoleNames {
  return {
    realm: [...held.realm].sort(),
    clients: Object.fromEntries([...held.clients].filter(([, names]) => names.size > 0).map(([clientId, names]) => [clientId, [...names].sort()])),
  };
}

/** Sets `value` at a dotted path of `body`, creating the objects on the way. */
function setAtPath(body: Rep, path: string, value: string): void {
  // A path ending in `[]` sets a list of the one value (a component's config holds lists).
  const list = path.endsWith('[]');
  const keys = (list ? path.slice(0, -2) : path).split('.');
  const last = keys.pop() ?? path;
  let target: Rep = body;
  for (const key of keys) {
    const next = target[key];
    const object: Rep = typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...(next as Rep) } : {};
    target[key] = object;
    target = object;
  }
  target[last] = list ? [value] : value;
}

/** How the simulator holds one type of resource: what a create, an update and a delete do to it. */
interface SimulatedResource<R extends KeycloakResource> {
  /** Returns the new resource's id. */
  create(resource: R, body: Rep, context: HandlerContext): string;
  update(resource: R, body: Rep, context: HandlerContext): void;
  /** Whether something was deleted (false: it was already gone); `realm` is the resource's, which exists. */
  delete(resource: R, context: HandlerContext, realm: StoredRealm): boolean;
}

type FlowResource = ResourceOf<'authenticationFlow' | 'authenticationFlowCopy' | 'flowExecution' | 'authenticatorConfig' | 'requiredAction'>;
type AuthorizationResource = ResourceOf<'authorizationSettings' | 'authorizationScope' | 'authorizationResource' | 'authorizationPolicy'>;

/** What a type does not allow: Keycloak has no such request. */
const refused = (what: string) => (resource: KeycloakResource): never => fail(405, 'MethodNotAllowed', `${describeResource(resource)} cannot ${what}`);

/** A partial update: attributes merged key by key, the rest replaced field by field; the id stays. */
function merge(rep: Rep, body: Rep): void {
  for (const [key, value] of Object.entries(body)) {
    if (key === 'attributes') rep['attributes'] = { ...(rep['attributes'] as Rep | undefined), ...(value as Rep) };
    else if (key !== 'id') rep[key] = value;
  }
}

/**
 * An in-memory Keycloak with the admin API's semantics as Keyward relies on them: partial updates, attributes
 * of clients and scopes merged key by key but a realm's replaced whole, a realm's smtpServer replaced whole (the mask keeps the stored password), secrets masked
 * on read, 409 for a duplicate and 404 for what is missing. For fast tests; the real server is the proof.
 */
export class SimulatedKeycloak {
  readonly api = keycloakApi;
  readonly #kube: SimulatedKubernetes;
  readonly #realms = new Map<string, StoredRealm>();
  #counter = 0;
  /** Writes made so far (creates, updates, deletes, grants, revokes, regenerations). */
  writes = 0;
  /** The realms' authentication flows. */
  /** The clients' authorization services. */
  readonly authorization = new SimulatedAuthorization((prefix) => this.#id(prefix));
  /** The realms' components: user federation providers and their mappers. */
  readonly components = new SimulatedComponents(() => this.#id('component'));
  readonly flows = new SimulatedFlows((prefix) => this.#id(prefix), (realm) => FLOW_BINDINGS.map((field) => text(this.#realms.get(realm)?.rep[field])));
  /** The realms' organizations. */
  readonly organizations = new SimulatedOrganizations(() => this.#id('organization'), (realm) => this.#realm(realm).rep['organizationsEnabled'] === true, (realm, alias) => this.#realm(realm).identityProviders.has(alias));

  /** Secrets that actions name by SecretKeyRef are read from `kube`. */
  constructor(kube: SimulatedKubernetes) {
    this.#kube = kube;
  }

  #id(prefix: string): string {
    this.#counter += 1;
    return `${prefix}-${String(this.#counter).padStart(4, '0')}`;
  }

  #realm(name: string): StoredRealm {
    return this.#realms.get(name) ?? notFound(`realm ${name}`);
  }

  #client(address: ClientAddress, context: HandlerContext): StoredClient {
    const id = context.resolve(address.id);
    return this.#realm(address.realm).clients.get(id) ?? notFound(`client ${address.clientId}`);
  }

  #body(body: KeycloakBody | undefined, secretFields: SecretFields | undefined, context: HandlerContext): Rep {
    const resolved = { ...(context.resolveTemplate(body ?? {}) as Record<string, Json>) } as Rep;
    for (const [path, ref] of Object.entries(secretFields ?? {})) setAtPath(resolved, path, this.#kube.readSecretKey(ref).reveal());
    return resolved;
  }

  /** Changes the realm's stored password from outside (as an administrator might), for tests. */
  realmSmtpPassword(realm: string): string | undefined {
    return this.#realms.get(realm)?.smtpPassword;
  }

  /** A client's current secret by clientId, for tests. */
  clientSecret(realm: string, clientId: string): string | undefined {
    return [...(this.#realms.get(realm)?.clients.values() ?? [])].find((c) => c.rep['clientId'] === clientId)?.secret;
  }

  /** Changes a realm or client out of band, as a person in the admin console would. */
  editRealm(realm: string, change: (rep: Rep) => void): void {
    change(this.#realm(realm).rep);
  }

  #createRealm(body: Rep): string {
    const name = text(body['realm']);
    if (this.#realms.has(name)) fail(409, 'Conflict', `Conflict detected. See logs for details`);
    const { smtpServer, ...rest } = body;
    const realm: StoredRealm = {
      rep: { enabled: true, clientProfiles: { profiles: [] }, clientPolicies: { policies: [] }, ...BUILT_IN_BINDINGS, ...rest, id: this.#id('realm') },
      smtpPassword: undefined,
      roles: new Map(),
      scopes: new Map(),
      defaultScopes: { default: new Set(BUILT_IN_SCOPES.default), optional: new Set(BUILT_IN_SCOPES.optional) },
      clients: new Map(),
      groups: new Map(),
      defaultGroups: new Set(),
      scopeMappings: new Map(),
      identityProviders: new Map(),
    };
    this.#realms.set(name, realm);
    this.flows.seed(name);
    if (smtpServer !== undefined) this.#setSmtp(realm, smtpServer);
    for (const role of [...BUILT_IN_ROLES, `default-roles-${name}`]) realm.roles.set(role, { rep: { name: role, id: this.#id('role') }, composites: emptyRoles() });
    for (const scope of [...BUILT_IN_SCOPES.default, ...BUILT_IN_SCOPES.optional]) {
      const id = this.#id('scope');
      realm.scopes.set(id, { rep: { id, name: scope, protocol: 'openid-connect', attributes: {} }, mappers: new Map() });
    }
    return name;
  }

  #setSmtp(realm: StoredRealm, smtp: KeycloakJson | undefined): void {
    const fields = { ...(smtp as Rep | undefined) };
    const password = fields['password'];
    if (password !== MASKED) realm.smtpPassword = typeof password === 'string' ? password : undefined;
    delete fields['password'];
    realm.rep['smtpServer'] = fields;
  }

  #updateRealm(name: string, body: Rep): void {
    const realm = this.#realm(name);
    for (const [key, value] of Object.entries(body)) {
      // Keycloak replaces a realm's attributes whole: keys the PUT leaves out are removed.
      if (key === 'attributes') realm.rep['attributes'] = { ...(value as Rep) };
      else if (key === 'smtpServer') this.#setSmtp(realm, value);
      else if (key !== 'realm' && key !== 'id') realm.rep[key] = value;
    }
  }

  #scope(realm: StoredRealm, name: string): StoredScope {
    return [...realm.scopes.values()].find((s) => s.rep['name'] === name) ?? notFound(`client scope ${name}`);
  }

  /** Links the realm's scope `name` into `list` of `lists` (out of the other list, as Keycloak moves it); returns the scope's id. */
  #linkScope(realm: StoredRealm, lists: Record<ScopeList, Set<string>>, list: ScopeList, name: string): string {
    const scope = this.#scope(realm, name);
    lists[list === 'default' ? 'optional' : 'default'].delete(name);
    lists[list].add(name);
    return text(scope.rep['id']);
  }

  #roleOf(realm: StoredRealm, holder: RoleHolder, context: HandlerContext): StoredRole['composites'] {
    if (holder.type === 'serviceAccount') {
      const client = this.#client(holder.client, context);
      return client.serviceAccount ?? fail(400, 'BadRequest', `client ${holder.client.clientId} has no service account`);
    }
    if (holder.type === 'group') return (realm.groups.get(context.resolve(holder.id)) ?? notFound(`group ${holder.path}`)).roles;
    if (holder.type === 'scopeMappings') {
      if (!this.#targetExists(realm, holder.target)) notFound(describeTarget(holder.target));
      const key = targetKey(holder.target);
      const held = realm.scopeMappings.get(key) ?? emptyRoles();
      realm.scopeMappings.set(key, held);
      return held;
    }
    const roles = holder.client === undefined ? realm.roles : this.#client(holder.client, context).roles;
    const role = roles.get(holder.name) ?? notFound(`role ${holder.name}`);
    return role.composites;
  }

  #checkRolesExist(realm: StoredRealm, roles: RoleNames): void {
    for (const name of roles.realm) if (!realm.roles.has(name)) notFound(`role ${name}`);
    for (const [clientId, names] of Object.entries(roles.clients)) {
      const client = [...realm.clients.values()].find((c) => c.rep['clientId'] === clientId) ?? notFound(`client ${clientId}`);
      for (const name of names) if (!client.roles.has(name)) notFound(`role ${name} of client ${clientId}`);
    }
  }

  #conflict(resource: KeycloakResource, found: boolean): void {
    if (found) fail(409, 'Conflict', `${describeResource(resource)} already exists`);
  }

  #identityProvider(realm: string, alias: string): StoredIdentityProvider {
    return this.#realm(realm).identityProviders.get(alias) ?? notFound(`identity provider ${alias}`);
  }

  /** Adds a mapper named `name` with an id of its own (prefixed `prefix`), or fails with 409 if one has that name; returns the id. */
  #addMapper(mappers: Map<string, Rep>, resource: KeycloakResource, name: string, rep: Rep, prefix = 'mapper'): string {
    this.#conflict(resource, [...mappers.values()].some((m) => m['name'] === name));
    const id = this.#id(prefix);
    mappers.set(id, { ...rep, name, id });
    return id;
  }

  /** Adds a role named `name`, or fails with 409 if there is one; returns the name, the role's id in plans. */
  #addRole(roles: Map<string, StoredRole>, resource: KeycloakResource, name: string, body: Rep): string {
    this.#conflict(resource, roles.has(name));
    roles.set(name, { rep: { ...body, name, id: this.#id('role') }, composites: emptyRoles() });
    return name;
  }

  /** New mappers of a client or scope created with some, each with an id of its own. */
  #newMappers(mappers: KeycloakJson | undefined): Map<string, Rep> {
    return new Map(((mappers as Rep[] | undefined) ?? []).map((m) => { const id = this.#id('mapper'); return [id, { ...m, id }]; }));
  }

  /** Flows, their steps and configs, and required actions: held by SimulatedFlows. */
  readonly #flowTypes: SimulatedResource<FlowResource> = {
    create: (resource, body, context) => this.flows.create(resource.realm, resource, body, (value) => context.resolve(value)),
    update: (resource, body, context) => { this.flows.update(resource.realm, resource, body, (value) => context.resolve(value)); },
    delete: (resource, context) => this.flows.delete(resource.realm, resource, (value) => context.resolve(value)),
  };

  /** A client's authorization services: held by SimulatedAuthorization. */
  readonly #authorizationTypes: SimulatedResource<AuthorizationResource> = {
    create: (resource, body, context) => this.authorization.create(context.resolve(resource.client.id), resource, body),
    update: (resource, body, context) => { this.authorization.update(context.resolve(resource.client.id), resource, body); },
    delete: (resource, context) => this.authorization.delete(context.resolve(resource.client.id), resource),
  };

  /** The realm's client profiles and client policies: one list each, replaced whole. */
  readonly #clientPolicyList: SimulatedResource<ResourceOf<'clientProfiles' | 'clientPolicies'>> = {
    create: refused('be created'),
    // Kept in the realm's representation, where GET /admin/realms/{realm} shows them.
    update: (resource, body) => { this.#realm(resource.realm).rep[resource.type] = { ...body }; },
    delete: (resource) => fail(405, 'MethodNotAllowed', `${describeResource(resource)} are replaced, not deleted`),
  };

  /** How the simulator holds each type of resource, one record per type. */
  readonly #types: { readonly [T in ResourceType]: SimulatedResource<ResourceOf<T>> } = {
    realm: {
      create: (resource, body) => this.#createRealm({ ...body, realm: resource.realm }),
      update: (resource, body) => { this.#updateRealm(resource.realm, body); },
      delete: (resource) => {
        this.flows.drop(resource.realm);
        this.organizations.drop(resource.realm);
        return this.#realms.delete(resource.realm);
      },
    },
    realmRole: {
      create: (resource, body) => this.#addRole(this.#realm(resource.realm).roles, resource, resource.name, body),
      update: (resource, body) => { merge((this.#realm(resource.realm).roles.get(resource.name) ?? notFound(`role ${resource.name}`)).rep, body); },
      delete: (resource, _context, realm) => realm.roles.delete(resource.name),
    },
    clientScope: {
      create: (resource, body) => {
        const realm = this.#realm(resource.realm);
        this.#conflict(resource, [...realm.scopes.values()].some((s) => s.rep['name'] === resource.name));
        const id = this.#id('scope');
        const { protocolMappers, ...rest } = body;
        realm.scopes.set(id, { rep: { ...rest, name: resource.name, id }, mappers: this.#newMappers(protocolMappers) });
        return id;
      },
      update: (resource, body, context) => { merge((this.#realm(resource.realm).scopes.get(context.resolve(resource.id ?? '')) ?? notFound(`client scope ${resource.name}`)).rep, body); },
      delete: (resource, context, realm) => realm.scopes.delete(context.resolve(resource.id ?? '')),
    },
    clientScopeMapper: {
      create: (resource, body, context) => {
        const scope = this.#realm(resource.realm).scopes.get(context.resolve(resource.scope.id)) ?? notFound(`client scope ${resource.scope.name}`);
        return this.#addMapper(scope.mappers, resource, resource.name, body);
      },
      update: (resource, body, context) => {
        const scope = this.#realm(resource.realm).scopes.get(context.resolve(resource.scope.id)) ?? notFound(`client scope ${resource.scope.name}`);
        merge(scope.mappers.get(resource.id ?? '') ?? notFound(`protocol mapper ${resource.name}`), body);
      },
      delete: (resource, context, realm) => realm.scopes.get(context.resolve(resource.scope.id))?.mappers.delete(resource.id ?? '') ?? false,
    },
    realmScopeLink: {
      create: (resource) => {
        const realm = this.#realm(resource.realm);
        return this.#linkScope(realm, realm.defaultScopes, resource.list, resource.scope);
      },
      update: refused('be updated'),
      delete: (resource, _context, realm) => realm.defaultScopes[resource.list].delete(resource.scope),
    },
    client: {
      create: (resource, body) => {
        const realm = this.#realm(resource.realm);
        this.#conflict(resource, [...realm.clients.values()].some((c) => c.rep['clientId'] === resource.clientId));
        const id = this.#id('client');
        const confidential = body['publicClient'] !== true && body['bearerOnly'] !== true;
        const given = typeof body['secret'] === 'string' ? body['secret'] : undefined;
        const { secret: _secret, protocolMappers, ...rest } = body;
        realm.clients.set(id, {
          rep: { enabled: true, publicClient: false, ...rest, clientId: resource.clientId, id },
          secret: confidential ? (given ?? `generated-${id}`) : undefined,
          mappers: this.#newMappers(protocolMappers),
          roles: new Map(),
          scopes: { default: new Set(realm.defaultScopes.default), optional: new Set(realm.defaultScopes.optional) },
          serviceAccount: body['serviceAccountsEnabled'] === true ? { realm: new Set([`default-roles-${resource.realm}`]), clients: new Map() } : undefined,
        });
        return id;
      },
      update: (resource, body, context) => {
        const client = this.#realm(resource.realm).clients.get(context.resolve(resource.id ?? '')) ?? notFound(`client ${resource.clientId}`);
        const { secret, ...rest } = body;
        if (typeof secret === 'string') client.secret = secret;
        merge(client.rep, body);
        delete client.rep['secret'];
        if (rest['serviceAccountsEnabled'] === true && client.serviceAccount === undefined) client.serviceAccount = { realm: new Set([`default-roles-${resource.realm}`]), clients: new Map() };
      },
      delete: (resource, context, realm) => realm.clients.delete(context.resolve(resource.id ?? '')),
    },
    clientRole: {
      create: (resource, body, context) => this.#addRole(this.#client(resource.client, context).roles, resource, resource.name, body),
      update: (resource, body, context) => { merge((this.#client(resource.client, context).roles.get(resource.name) ?? notFound(`role ${resource.name}`)).rep, body); },
      delete: (resource, context, realm) => realm.clients.get(context.resolve(resource.client.id))?.roles.delete(resource.name) ?? false,
    },
    clientMapper: {
      create: (resource, body, context) => this.#addMapper(this.#client(resource.client, context).mappers, resource, resource.name, body),
      update: (resource, body, context) => { merge(this.#client(resource.client, context).mappers.get(resource.id ?? '') ?? notFound(`protocol mapper ${resource.name}`), body); },
      delete: (resource, context, realm) => realm.clients.get(context.resolve(resource.client.id))?.mappers.delete(resource.id ?? '') ?? false,
    },
    clientScopeLink: {
      create: (resource, _body, context) => this.#linkScope(this.#realm(resource.client.realm), this.#client(resource.client, context).scopes, resource.list, resource.scope),
      update: refused('be updated'),
      delete: (resource, context, realm) => realm.clients.get(context.resolve(resource.client.id))?.scopes[resource.list].delete(resource.scope) ?? false,
    },
    clientProfiles: this.#clientPolicyList,
    clientPolicies: this.#clientPolicyList,
    rotatedClientSecret: {
      create: refused('be created'),
      update: refused('be updated'),
      // The simulator does not rotate: no client of it has a rotated secret.
      delete: () => false,
    },
    authenticationFlow: this.#flowTypes,
    authenticationFlowCopy: this.#flowTypes,
    flowExecution: this.#flowTypes,
    authenticatorConfig: this.#flowTypes,
    requiredAction: this.#flowTypes,
    group: {
      create: (resource, body, context) => {
        const realm = this.#realm(resource.realm);
        const parent = resource.parentId === undefined ? undefined : context.resolve(resource.parentId);
        if (parent !== undefined && !realm.groups.has(parent)) notFound(`the parent of group ${resource.path}`);
        const name = text(body['name']);
        this.#conflict(resource, [...realm.groups.values()].some((g) => g.parent === parent && g.rep['name'] === name));
        const id = this.#id('group');
        realm.groups.set(id, { rep: { attributes: {}, ...body, id }, parent, roles: emptyRoles() });
        return id;
      },
      update: (resource, body, context) => {
        // Keycloak replaces a group's attributes whole when the PUT has them.
        const group = this.#realm(resource.realm).groups.get(context.resolve(resource.id ?? '')) ?? notFound(`group ${resource.path}`);
        for (const [key, value] of Object.entries(body)) if (key !== 'id') group.rep[key] = value;
      },
      delete: (resource, context, realm) => this.#deleteGroup(realm, context.resolve(resource.id ?? '')),
    },
    defaultGroup: {
      create: (resource) => {
        const realm = this.#realm(resource.realm);
        const id = this.#groupIdAt(realm, resource.path) ?? notFound(`group ${resource.path}`);
        realm.defaultGroups.add(id);
        return id;
      },
      update: refused('be updated'),
      delete: (resource, _context, realm) => realm.defaultGroups.delete(this.#groupIdAt(realm, resource.path) ?? ''),
    },
    identityProvider: {
      create: (resource, body) => {
        const realm = this.#realm(resource.realm);
        this.#conflict(resource, realm.identityProviders.has(resource.alias));
        realm.identityProviders.set(resource.alias, { rep: identityProviderRep({ enabled: true, ...body, alias: resource.alias }, undefined), mappers: new Map() });
        return resource.alias;
      },
      update: (resource, body) => {
        // Keycloak replaces an identity provider whole: fields and config keys a PUT leaves out are gone.
        const provider = this.#identityProvider(resource.realm, resource.alias);
        provider.rep = identityProviderRep({ ...body, alias: resource.alias }, provider.rep);
      },
      delete: (resource, _context, realm) => realm.identityProviders.delete(resource.alias),
    },
    identityProviderMapper: {
      create: (resource, body) => this.#addMapper(this.#identityProvider(resource.realm, resource.alias).mappers, resource, resource.name, { ...body, identityProviderAlias: resource.alias }, 'idp-mapper'),
      update: (resource, body) => {
        const provider = this.#identityProvider(resource.realm, resource.alias);
        const current = provider.mappers.get(resource.id ?? '') ?? notFound(`mapper ${resource.name}`);
        provider.mappers.set(text(current['id']), { ...body, id: current['id'], name: resource.name, identityProviderAlias: resource.alias });
      },
      delete: (resource, _context, realm) => realm.identityProviders.get(resource.alias)?.mappers.delete(resource.id ?? '') ?? false,
    },
    authorizationSettings: this.#authorizationTypes,
    authorizationScope: this.#authorizationTypes,
    authorizationResource: this.#authorizationTypes,
    authorizationPolicy: this.#authorizationTypes,
    component: {
      create: (resource, body) => {
        this.#realm(resource.realm);
        return this.components.create(resource.realm, body);
      },
      update: (resource, body, context) => { this.components.update(resource.realm, context.resolve(resource.id ?? ''), body); },
      delete: (resource, context) => this.components.delete(resource.realm, context.resolve(resource.id ?? '')),
    },
    organization: {
      create: (resource, body) => this.organizations.create(resource.realm, { ...body, alias: resource.alias }),
      update: (resource, body) => { this.organizations.update(resource.realm, resource.id ?? '', { ...body, alias: resource.alias }); },
      delete: (resource) => this.organizations.delete(resource.realm, resource.id ?? ''),
    },
    organizationIdentityProvider: {
      create: (resource, _body, context) => this.organizations.link(resource.realm, context.resolve(resource.organization.id), resource.alias),
      update: refused('be updated'),
      delete: (resource, context) => this.organizations.unlink(resource.realm, context.resolve(resource.organization.id), resource.alias),
    },
  };

  /** The record of `resource`'s type. */
  // The table is keyed by type, so the record found is the one for this resource: TypeScript cannot follow that
  // correlation through an index, hence the cast.
  #typeOf<R extends KeycloakResource>(resource: R): SimulatedResource<R> {
    return this.#types[resource.type] as unknown as SimulatedResource<R>;
  }

  #create(resource: KeycloakResource, body: Rep, context: HandlerContext): string {
    return this.#typeOf(resource).create(resource, body, context);
  }

  #update(resource: KeycloakResource, body: Rep, context: HandlerContext): void {
    this.#typeOf(resource).update(resource, body, context);
  }

  /** Whether something was deleted (false: it was already gone). */
  #delete(resource: KeycloakResource, context: HandlerContext): boolean {
    const realm = this.#realms.get('client' in resource ? resource.client.realm : resource.realm);
    return realm === undefined ? false : this.#typeOf(resource).delete(resource, context, realm);
  }

  #targetExists(realm: StoredRealm, target: ScopeMappingTarget): boolean {
    return 'clientScope' in target
      ? [...realm.scopes.values()].some((scope) => scope.rep['name'] === target.clientScope)
      : [...realm.clients.values()].some((client) => client.rep['clientId'] === target.client);
  }

  #realmOfHolder(holder: RoleHolder): StoredRealm {
    if (holder.type === 'group' || holder.type === 'scopeMappings') return this.#realm(holder.realm);
    return this.#realm(holder.type === 'serviceAccount' ? holder.client.realm : holder.client?.realm ?? holder.realm);
  }

  /** Deletes a group with its subgroups, as Keycloak does. */
  #deleteGroup(realm: StoredRealm, id: string): boolean {
    for (const [childId, child] of realm.groups) if (child.parent === id) this.#deleteGroup(realm, childId);
    realm.defaultGroups.delete(id);
    return realm.groups.delete(id);
  }

  #groupIdAt(realm: StoredRealm, path: string): string | undefined {
    return [...realm.groups.entries()].find(([, group]) => this.#pathOf(realm, group) === path)?.[0];
  }

  /** The groups under `parent` (the top level when undefined), each with all of its subgroups. */
  #observedGroups(realm: StoredRealm, parent: string | undefined, parentPath: string): ObservedGroup[] {
    return [...realm.groups.values()].filter((group) => group.parent === parent).map((group) => {
      const id = text(group.rep['id']);
      const name = text(group.rep['name']);
      const path = `${parentPath}/${name}`;
      const attributes = (group.rep['attributes'] ?? {}) as Readonly<Record<string, readonly string[]>>;
      return { id, name, path, attributes, roles: namesOf(group.roles), subGroups: this.#observedGroups(realm, id, path) };
    });
  }

  /** Changes a group out of band (by path), as a person in the admin console would. */
  editGroup(realm: string, path: string, change: (rep: Rep, roles: StoredRole['composites']) => void): void {
    const stored = this.#realm(realm);
    const found = [...stored.groups.values()].find((group) => this.#pathOf(stored, group) === path) ?? notFound(`group ${path}`);
    change(found.rep, found.roles);
  }

  #pathOf(realm: StoredRealm, group: StoredGroup): string {
    const parent = group.parent === undefined ? undefined : realm.groups.get(group.parent);
    return `${parent === undefined ? '' : this.#pathOf(realm, parent)}/${text(group.rep['name'])}`;
  }

  get handlers(): HandlerTable<KeycloakAction> {
    const wrote = <O>(outputs: O, changed = true) => {
      if (changed) this.writes += 1;
      return Promise.resolve({ outcome: changed ? ('applied' as const) : ('unchanged' as const), outputs });
    };
    return {
      'keycloak.create': (action, context) => wrote({ id: this.#create(action.resource, this.#body(action.body, action.secretFields, context), context) }),
      'keycloak.update': (action, context) => {
        this.#update(action.resource, this.#body(action.body, action.secretFields, context), context);
        return wrote({});
      },
      'keycloak.delete': (action, context) => wrote({}, this.#delete(action.resource, context)),
      'keycloak.grantRoles': (action, context) => {
        const realm = this.#realmOfHolder(action.holder);
        this.#checkRolesExist(realm, action.roles);
        const held = this.#roleOf(realm, action.holder, context);
        const before = JSON.stringify(namesOf(held));
        for (const name of action.roles.realm) held.realm.add(name);
        for (const [clientId, names] of Object.entries(action.roles.clients)) {
          const set = held.clients.get(clientId) ?? new Set<string>();
          for (const name of names) set.add(name);
          held.clients.set(clientId, set);
        }
        return wrote({}, JSON.stringify(namesOf(held)) !== before);
      },
      'keycloak.revokeRoles': (action, context) => {
        const held = this.#roleOf(this.#realmOfHolder(action.holder), action.holder, context);
        const before = JSON.stringify(namesOf(held));
        for (const name of action.roles.realm) held.realm.delete(name);
        for (const [clientId, names] of Object.entries(action.roles.clients)) for (const name of names) held.clients.get(clientId)?.delete(name);
        return wrote({}, JSON.stringify(namesOf(held)) !== before);
      },
      'keycloak.regenerateClientSecret': (action, context) => {
        const client = this.#client(action.client, context);
        client.secret = `regenerated-${this.#id('secret')}`;
        return wrote({ secret: sensitive(client.secret) });
      },
    };
  }

  #observedRole(stored: StoredRole): ObservedRole {
    return { role: { ...stored.rep, name: text(stored.rep['name']) }, composites: namesOf(stored.composites) };
  }

  #observeIdentityProviders(realm: StoredRealm, mappersOf: readonly string[]): ObservedIdentityProvider[] {
    return [...realm.identityProviders.values()].map((stored) => {
      const config = { ...(stored.rep['config'] as Record<string, string> | undefined) };
      if (config[IDP_SECRET_KEY] !== undefined) config[IDP_SECRET_KEY] = MASKED;
      const alias = text(stored.rep['alias']);
      const mappers = mappersOf.includes(alias) ? [...stored.mappers.values()].map((m) => ({ ...m, name: text(m['name']), identityProviderMapper: text(m['identityProviderMapper']) })) : undefined;
      return { provider: { ...stored.rep, alias, providerId: text(stored.rep['providerId']), config }, mappers };
    });
  }

  #observeRealm(name: string, groups: boolean, defaultGroups: boolean, targets: readonly ScopeMappingTarget[] | undefined, identityProviders?: { readonly mappersOf: readonly string[] }): ObservedRealm | undefined {
    const realm = this.#realms.get(name);
    if (realm === undefined) return undefined;
    const rep: Rep = { ...realm.rep, realm: name };
    if (realm.rep['smtpServer'] !== undefined && realm.smtpPassword !== undefined) rep['smtpServer'] = { ...(realm.rep['smtpServer'] as Rep), password: MASKED };
    return {
      realm: { ...rep, realm: name },
      roles: [...realm.roles.values()].map((role) => this.#observedRole(role)),
      clientScopes: [...realm.scopes.values()].map((scope): ClientScopeRepresentation => ({
        ...scope.rep,
        name: text(scope.rep['name']),
        protocolMappers: [...scope.mappers.values()] as unknown as ProtocolMapperRepresentation[],
      })),
      defaultClientScopes: [...realm.defaultScopes.default].sort(),
      optionalClientScopes: [...realm.defaultScopes.optional].sort(),
      ...(groups ? { groups: this.#observedGroups(realm, undefined, '') } : {}),
      ...(targets === undefined ? {} : {
        scopeMappings: targets.map((target) => ({ target, roles: this.#targetExists(realm, target) ? namesOf(realm.scopeMappings.get(targetKey(target)) ?? emptyRoles()) : undefined })),
      }),
      ...(defaultGroups ? { defaultGroups: [...realm.defaultGroups].map((id) => this.#pathOf(realm, realm.groups.get(id) ?? notFound(`group ${id}`))) } : {}),
      ...(identityProviders === undefined ? {} : { identityProviders: this.#observeIdentityProviders(realm, identityProviders.mappersOf) }),
    };
  }

  #observeClient({ realm: realmName, clientId, owner, roles, authorization, authorizationPolicies }: KeycloakClientQuery): ObservedClient | undefined {
    const client = [...(this.#realms.get(realmName)?.clients.values() ?? [])].find((c) => c.rep['clientId'] === clientId);
    if (client === undefined) return undefined;
    const attributes = client.rep['attributes'] as Readonly<Record<string, string>> | undefined;
    const owned = ownershipOf(attributes, owner).kind === 'ours';
    const mappers = [...client.mappers.values()] as KeycloakObject[] as unknown as ProtocolMapperRepresentation[];
    return {
      client: { ...client.rep, id: text(client.rep['id']), clientId, protocolMappers: mappers },
      secret: owned && client.secret !== undefined ? sensitive(client.secret) : undefined,
      roles: roles ? [...client.roles.values()].map((role) => this.#observedRole(role)) : [],
      defaultClientScopes: [...client.scopes.default].sort(),
      optionalClientScopes: [...client.scopes.optional].sort(),
      serviceAccountRoles: client.serviceAccount === undefined ? undefined : namesOf(client.serviceAccount),
      ...(authorization === true && client.rep['authorizationServicesEnabled'] === true ? { authorization: this.authorization.observe(text(client.rep['id']), authorizationPolicies) } : {}),
    };
  }

  /** Those of `clientIds` the realm has. */
  #existingClients(realm: string, clientIds: readonly string[]): string[] {
    const held = new Set([...(this.#realms.get(realm)?.clients.values() ?? [])].map((client) => client.rep['clientId']));
    return clientIds.filter((clientId) => held.has(clientId));
  }

  #observeOrganizations(realm: string, linksOf: readonly string[]): Pick<ObservedRealm, 'organizations' | 'organizationLinks'> {
    const organizations = this.organizations.observe(realm);
    if (organizations === undefined) return {};
    return { organizations, ...(linksOf.length === 0 ? {} : { organizationLinks: this.organizations.linked(realm, linksOf) }) };
  }

  /** What a grant guard's read reaches, as the admin API answers it (see io/grant-reach.ts). */
  #grantReach(realmName: string, read: ReachRead): ObservedReach {
    const realm = this.#realms.get(realmName);
    const held = (role: RoleRef): StoredRole | undefined => (role.clientId === undefined
      ? realm?.roles.get(role.name)
      : [...(realm?.clients.values() ?? [])].find((client) => client.rep['clientId'] === role.clientId)?.roles.get(role.name));
    const composites = (role: RoleRef): RoleNames | undefined => {
      const stored = held(role);
      return stored === undefined || (stored.composites.realm.size === 0 && stored.composites.clients.size === 0) ? undefined : namesOf(stored.composites);
    };
    const groupRoles = (path: string): RoleNames | undefined => {
      const group = realm === undefined ? undefined : [...realm.groups.values()].find((stored) => this.#pathOf(realm, stored) === path);
      return group === undefined ? undefined : namesOf(group.roles);
    };
    const walk = new ReachWalk(read, (role) => role.clientId !== undefined && isAdminClientRole(realmName, role.clientId));
    walk.foundGroups(walk.groups.map((path) => ({ path, roles: groupRoles(path) })));
    for (let level = walk.level(); level.length > 0; level = walk.level()) walk.foundComposites(level.map((role) => ({ role, composites: composites(role) })));
    return walk.reached;
  }

  get answers(): QueryTable<KeycloakQuery> {
    return {
      'keycloak.realm': (query) => {
        const observed = this.#observeRealm(query.realm, query.groups !== undefined, query.defaultGroups === true, query.scopeMappings, query.identityProviders);
        const flows = query.authenticationFlows;
        if (observed === undefined) return observed;
        return {
          ...observed,
          ...(flows === undefined ? {} : { authenticationFlows: this.flows.observe(query.realm, flows) }),
          ...(query.requiredActions === true ? { requiredActions: this.flows.requiredActions(query.realm) } : {}),
          ...(query.userFederation === undefined ? {} : { userFederation: this.components.observe(query.realm, query.userFederation.mappersOf) }),
          ...(query.organizations === true ? this.#observeOrganizations(query.realm, query.organizationLinksOf ?? []) : {}),
          ...(query.clients === undefined ? {} : { clients: this.#existingClients(query.realm, query.clients) }),
        };
      },
      'keycloak.client': (query) => this.#observeClient(query),
      'keycloak.flows': (query) => (this.#realms.has(query.realm) ? this.flows.observe(query.realm, { executionsOf: [] }).map(({ flow }) => ({ id: flow.id, alias: flow.alias })) : undefined),
      'keycloak.grantReach': (query) => this.#grantReach(query.realm, query.read),
    };
  }
}

/**
 * An identity provider as Keycloak stores it from a create or update body: empty config values are dropped, and
 * the mask as clientSecret keeps the one `previous` holds.
 */
function identityProviderRep(body: Rep, previous: Rep | undefined): Rep {
  const kept = (previous?.['config'] as Record<string, string> | undefined)?.[IDP_SECRET_KEY];
  const config = Object.entries((body['config'] as Record<string, string> | undefined) ?? {})
    .map(([key, value]): [string, string | undefined] => [key, key === IDP_SECRET_KEY && value === MASKED ? kept : value])
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '');
  return { ...body, config: Object.fromEntries(config) };
}

/** For InMemoryWorld: `new InMemoryWorld({ keycloak: simulateKeycloak })`. */
export function simulateKeycloak(kube: SimulatedKubernetes): SimulatedKeycloak {
  return new SimulatedKeycloak(kube);
}
