/** The OpenID Connect endpoints of a realm, as statuses and the credentials Secret name them. */
// A type, not an interface: it goes into statuses, which are plain JSON data.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type RealmEndpoints = {
  readonly issuer: string;
  readonly token: string;
  readonly userinfo: string;
  readonly jwks: string;
};

/** The endpoints of `realm` on the Keycloak at `url` (its root, without /realms). */
export function realmEndpoints(url: string, realm: string): RealmEndpoints {
  const issuer = `${url.replace(/\/+$/, '')}/realms/${encodeURIComponent(realm)}`;
  const oidc = `${issuer}/protocol/openid-connect`;
  return { issuer, token: `${oidc}/token`, userinfo: `${oidc}/userinfo`, jwks: `${oidc}/certs` };
}

/** Endpoints as a status stores them; undefined unless all four are text. */
export function readEndpoints(raw: unknown): RealmEndpoints | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { issuer, token, userinfo, jwks } = raw as Readonly<Record<string, unknown>>;
  return typeof issuer === 'string' && typeof token === 'string' && typeof userinfo === 'string' && typeof jwks === 'string' ? { issuer, token, userinfo, jwks } : undefined;
}

/** The schema of endpoints in a status. */
export const endpointsSchema = {
  type: 'object',
  description: 'The realm\'s OpenID Connect endpoints.',
  properties: {
    issuer: { type: 'string', description: 'The issuer URL tokens carry: <keycloak-url>/realms/<realm>.' },
    token: { type: 'string', description: 'The token endpoint URL.' },
    userinfo: { type: 'string', description: 'The userinfo endpoint URL.' },
    jwks: { type: 'string', description: 'The URL of the realm\'s signing keys (JWKS).' },
  },
};
