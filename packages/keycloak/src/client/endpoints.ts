/** The OpenID Connect endpoints of a realm, as clients and the credentials Secret name them. */
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
