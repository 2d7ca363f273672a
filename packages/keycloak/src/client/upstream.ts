import type { UpstreamShape, UpstreamSpelling } from '../upstream-spellings.js';
import { AUTHORIZATION_UPSTREAM_SHAPES } from './authorization-upstream.js';

/** How the Kopf operator's KeycloakClient manifests spell what Keyward spells otherwise, or has no use for. */
export const CLIENT_UPSTREAM_SPELLINGS: readonly UpstreamSpelling[] = [
  // The Kopf operator sent these as fields Keycloak does not have, so they never took effect; Keyward binds them.
  { upstream: 'authenticationFlows.browserFlow', keyward: 'authenticationFlowOverrides.browser' },
  { upstream: 'authenticationFlows.directGrantFlow', keyward: 'authenticationFlowOverrides.directGrant' },
  {
    upstream: 'authenticationFlows.clientAuthenticationFlow',
    ignoredBecause: 'Keycloak overrides only the browser and direct grant flows per client; bind it for the realm (flowBindings.clientAuthenticationFlow)',
    schema: { type: 'string' },
  },
  {
    upstream: 'settings.refreshTokenLifespan',
    ignoredBecause: 'Keycloak keeps no refresh token lifespan per client: a client\'s refresh tokens last as long as its sessions (settings.clientSessionIdleTimeout, settings.clientSessionMaxLifespan)',
    schema: { type: 'integer' },
  },
];

/** Where the Kopf operator's KeycloakClient is shaped otherwise: its policies and permissions, a list per type. */
export const CLIENT_UPSTREAM_SHAPES: readonly UpstreamShape[] = AUTHORIZATION_UPSTREAM_SHAPES;
