import { deepEqual } from '@keyward/kernel/plan';
import type { KeycloakBody } from '../apis/keycloak/actions.js';
import type { ClientRepresentation, KeycloakJson } from '../apis/keycloak/representations.js';
import { ownershipAttributes, type OwnerObject } from '../ownership.js';
import { effectiveOverrides, type FlowOverrides } from './flow-overrides.js';
import type { KeycloakClientSpec } from './spec.js';

// The client as the spec wants it in Keycloak, and what differs from the client as Keycloak has it. Only the
// fields the spec states are compared: whatever it leaves out is Keycloak's (server defaults, other tools).

/** Keycloak keeps some settings as client attributes. */
export const ATTRIBUTE_KEYS = {
  pkceCodeChallengeMethod: 'pkce.code.challenge.method',
  accessTokenLifespan: 'access.token.lifespan',
  clientSessionIdleTimeout: 'client.session.idle.timeout',
  clientSessionMaxLifespan: 'client.session.max.lifespan',
  postLogoutRedirectUris: 'post.logout.redirect.uris',
  displayOnConsentScreen: 'display.on.consent.screen',
  includeInTokenScope: 'include.in.token.scope',
} as const;

/** Keycloak joins the post-logout redirect URIs into one attribute with this separator. */
const URI_SEPARATOR = '##';

/** Fields whose order means nothing: compared as sets. */
const SET_FIELDS: ReadonlySet<string> = new Set(['redirectUris', 'webOrigins']);
const SET_ATTRIBUTES: ReadonlySet<string> = new Set([ATTRIBUTE_KEYS.postLogoutRedirectUris]);

export interface DesiredClient {
  /** Top-level fields of the representation the spec states. */
  readonly fields: Readonly<Record<string, KeycloakJson>>;
  /** Attributes the spec states, ownership included. */
  readonly attributes: Readonly<Record<string, string>>;
}

const defined = <T>(entries: readonly (readonly [string, T | undefined])[]): Record<string, T> =>
  Object.fromEntries(entries.filter((entry): entry is readonly [string, T] => entry[1] !== undefined));

const FLOW_OVERRIDES = 'authenticationFlowBindingOverrides';

/** The representation `spec` asks for, owned by `owner`, with its flow overrides resolved to ids. */
export function desiredClient(spec: KeycloakClientSpec, owner: OwnerObject, flowOverrides?: FlowOverrides): DesiredClient {
  const settings = spec.settings ?? {};
  const fields = defined<KeycloakJson>([
    ['name', spec.clientName],
    ['description', spec.description],
    ['publicClient', spec.publicClient],
    ['bearerOnly', spec.bearerOnly],
    ['protocol', spec.protocol],
    ['redirectUris', spec.redirectUris],
    ['webOrigins', spec.webOrigins],
    ['rootUrl', spec.rootUrl],
    ['adminUrl', spec.adminUrl],
    ['baseUrl', spec.baseUrl],
    ['standardFlowEnabled', settings.standardFlowEnabled],
    ['implicitFlowEnabled', settings.implicitFlowEnabled],
    ['directAccessGrantsEnabled', settings.directAccessGrantsEnabled],
    ['serviceAccountsEnabled', settings.serviceAccountsEnabled],
    ['consentRequired', settings.consentRequired],
    ['fullScopeAllowed', settings.fullScopeAllowed],
    ['frontchannelLogout', settings.frontchannelLogout],
    ['alwaysDisplayInConsole', settings.alwaysDisplayInConsole],
    ['clientAuthenticatorType', settings.clientAuthenticatorType],
    [FLOW_OVERRIDES, flowOverrides],
    // Turning authorization services off deletes them in Keycloak: a spec that stops stating them leaves them on,
    // and only settings.authorizationServicesEnabled false turns them off.
    ['authorizationServicesEnabled', spec.authorizationSettings === undefined ? settings.authorizationServicesEnabled : true],
  ]);
  const text = (value: number | boolean | undefined): string | undefined => (value === undefined ? undefined : String(value));
  // Settings win over the same keys in spec.attributes, and ownership over both.
  const attributes = {
    ...spec.attributes,
    ...defined<string>([
      [ATTRIBUTE_KEYS.pkceCodeChallengeMethod, settings.pkceCodeChallengeMethod],
      [ATTRIBUTE_KEYS.accessTokenLifespan, text(settings.accessTokenLifespan)],
      [ATTRIBUTE_KEYS.clientSessionIdleTimeout, text(settings.clientSessionIdleTimeout)],
      [ATTRIBUTE_KEYS.clientSessionMaxLifespan, text(settings.clientSessionMaxLifespan)],
      [ATTRIBUTE_KEYS.postLogoutRedirectUris, spec.postLogoutRedirectUris?.join(URI_SEPARATOR)],
      [ATTRIBUTE_KEYS.displayOnConsentScreen, text(settings.displayOnConsentScreen)],
      [ATTRIBUTE_KEYS.includeInTokenScope, text(settings.includeInTokenScope)],
    ]),
    ...ownershipAttributes(owner),
  };
  return { fields, attributes };
}

/**
 * What a new client gets where the spec is silent and the Keycloak operator Keyward replaces defaulted
 * otherwise than Keycloak does (both off in Keycloak): a manifest migrated from it keeps the password grant and
 * front-channel logout. Only at creation: a client that exists keeps what it has unless the spec states it, so
 * an upgrade of Keyward turns nothing on.
 */
export const CLIENT_CREATION_DEFAULTS: Readonly<Record<string, KeycloakJson>> = { directAccessGrantsEnabled: true, frontchannelLogout: true };

/**
 * The body that creates the client: every field the spec states, over the creation defaults. A client
 * without `clientName` is named after its clientId, as the Keycloak operator Keyward replaces named it.
 */
export function creationBody(clientId: string, desired: DesiredClient): KeycloakBody {
  const overrides = desired.fields[FLOW_OVERRIDES];
  // A new client has no override to remove.
  const effective = overrides === undefined ? {} : { [FLOW_OVERRIDES]: effectiveOverrides(overrides) as Readonly<Record<string, string>> };
  return { clientId, name: clientId, ...CLIENT_CREATION_DEFAULTS, ...desired.fields, ...effective, attributes: desired.attributes };
}

const asSet = (value: KeycloakJson | undefined): Set<unknown> | undefined => (Array.isArray(value) ? new Set(value) : undefined);

function sameSet(a: ReadonlySet<unknown> | undefined, b: ReadonlySet<unknown> | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  return a.size === b.size && [...a].every((item) => b.has(item));
}

function sameField(field: string, desired: KeycloakJson, observed: KeycloakJson | undefined): boolean {
  if (field === FLOW_OVERRIDES) return deepEqual(effectiveOverrides(desired), effectiveOverrides(observed));
  return SET_FIELDS.has(field) ? sameSet(asSet(desired), asSet(observed)) : deepEqual(desired, observed);
}

function sameAttribute(key: string, desired: string, observed: string | undefined): boolean {
  if (!SET_ATTRIBUTES.has(key)) return desired === observed;
  const split = (text: string | undefined): Set<string> => new Set((text ?? '').split(URI_SEPARATOR).filter((uri) => uri !== ''));
  return sameSet(split(desired), split(observed));
}

export interface ClientChanges {
  /** What to PUT: the fields that differ, and the attributes that differ (Keycloak merges them key by key). */
  readonly body: KeycloakBody;
  /** Their names, for the plan: `redirectUris`, `attributes.pkce.code.challenge.method`. */
  readonly changed: readonly string[];
}

/** What of `desired` the observed client does not have yet. */
export function clientChanges(desired: DesiredClient, observed: ClientRepresentation): ClientChanges {
  const fields = Object.entries(desired.fields).filter(([field, value]) => !sameField(field, value, observed[field]));
  const attributes = Object.entries(desired.attributes).filter(([key, value]) => !sameAttribute(key, value, observed.attributes?.[key]));
  const body: KeycloakBody = {
    ...Object.fromEntries(fields),
    ...(attributes.length === 0 ? {} : { attributes: Object.fromEntries(attributes) }),
  };
  return { body, changed: [...fields.map(([field]) => field), ...attributes.map(([key]) => `attributes.${key}`)] };
}
