import { FLOW_BINDINGS } from './flows/spec.js';
import { ignoredField, type UpstreamShape, type UpstreamSpelling } from '../upstream-spellings.js';
import { DEFAULT_ROLE_SPELLINGS } from './default-role-upstream.js';
import { AUTHENTICATION_FLOWS_SHAPE } from './flows/upstream.js';
import { CLIENT_SCOPE_MAPPINGS_SHAPE } from './scope-mappings/upstream.js';
import { USER_FEDERATION_UPSTREAM_SPELLINGS } from './user-federation/upstream.js';

/** The Kopf operator's brute-force fields, named without Keycloak's unit suffix; the values are the same. */
const BRUTE_FORCE_UNITS = {
  maxFailureWait: 'maxFailureWaitSeconds',
  minimumQuickLoginWait: 'minimumQuickLoginWaitSeconds',
  waitIncrement: 'waitIncrementSeconds',
  quickLoginCheckMillis: 'quickLoginCheckMilliSeconds',
  maxDeltaTime: 'maxDeltaTimeSeconds',
} as const;

/** How the Kopf operator's KeycloakRealm manifests spell what Keyward spells otherwise, or has no use for. */
export const REALM_UPSTREAM_SPELLINGS: readonly UpstreamSpelling[] = [
  { upstream: 'roles.realmRoles', keyward: 'realmRoles' },
  // Read after the list above has moved, so they apply to a role in either list.
  { upstream: 'realmRoles[].compositeRoles', keyward: 'realmRoles[].composites.realm' },
  {
    upstream: 'realmRoles[].composite',
    ignoredBecause: 'Keycloak marks a role composite when it has composites, which compositeRoles states',
    schema: { type: 'boolean' },
  },
  ...Object.entries(BRUTE_FORCE_UNITS).map(([upstream, keyward]) => ({ upstream: `security.${upstream}`, keyward: `security.${keyward}` })),
  // Keycloak's realm representation's scope mappings: `roles` are realm roles (clientScopeMappings holds client roles).
  { upstream: 'scopeMappings[].roles', keyward: 'scopeMappings[].realmRoles' },
  // Its flow bindings are fields of the spec itself; Keyward keeps them together.
  ...FLOW_BINDINGS.map((binding) => ({ upstream: binding, keyward: `flowBindings.${binding}` })),
  ignoredField('identityProviders[].authenticateByDefault', 'boolean', 'Keycloak 26 stores it and its login never reads it; the Identity Provider Redirector step of a browser flow picks a default provider'),
  ...USER_FEDERATION_UPSTREAM_SPELLINGS,
  {
    upstream: 'browserSecurityHeaders.xXSSProtection',
    ignoredBecause: 'Keycloak 26.2 and later send no X-XSS-Protection header',
    schema: { type: 'string' },
  },
  ...DEFAULT_ROLE_SPELLINGS,
  {
    upstream: 'instanceRef',
    ignoredBecause: 'the operator reaches one Keycloak, the one of its --keycloak-url; operatorRef names the operator',
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The Keycloak object the Kopf operator\'s older CRD named; not used.' },
        namespace: { type: 'string', description: 'Its namespace; not used.' },
      },
    },
  },
];

/** What the Kopf operator's KeycloakRealm manifests shape otherwise, read after the spellings above. */
export const REALM_UPSTREAM_SHAPES: readonly UpstreamShape[] = [AUTHENTICATION_FLOWS_SHAPE, CLIENT_SCOPE_MAPPINGS_SHAPE];
