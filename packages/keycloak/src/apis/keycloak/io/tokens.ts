import { sensitive, type Sensitive } from '@keyward/kernel';
import { KeywardError } from '@keyward/kernel/interpreter';
import { type HttpForm, type HttpTransport } from '@keyward/runtime/io';
import type { KeycloakServer } from '../actions.js';
import type { KeycloakJson, KeycloakObject } from '../representations.js';
import type { AdminCredentials, CredentialsSecret } from './credentials.js';
import { badResponse, objectBody } from './decode.js';

/** The master realm's token endpoint, relative to the server root. */
export const TOKEN_PATH = '/realms/master/protocol/openid-connect/token';

/** The client the password grant logs in through: every realm has it, and it needs no secret. */
const ADMIN_CLI = 'admin-cli';

/** Stop reusing a token this long before it expires (master tokens live 60 s), so it cannot expire mid-call. */
const DEFAULT_REFRESH_MARGIN_MS = 15_000;

export interface AdminToken {
  readonly token: Sensitive;
  /** Its lifetime as Keycloak gave it (expires_in), in ms. */
  readonly lifetimeMs: number;
}

export interface AdminTokenCacheOptions {
  /** Reads a server's admin credentials; called whenever a new token is needed, so a rotated Secret is used. */
  readonly readCredentials: (secret: CredentialsSecret) => Promise<AdminCredentials>;
  /** The transport of a server URL. */
  readonly transportFor: (url: string) => HttpTransport;
  /** Token requests wait for the rate limiter's token bucket. */
  readonly limiter: { acquireToken(): Promise<void> };
  /** Milliseconds since the epoch; injectable for tests. */
  readonly now?: () => number;
  /** See DEFAULT_REFRESH_MARGIN_MS; never more than half a token's lifetime. */
  readonly refreshMarginMs?: number;
}

interface Entry {
  readonly token: Promise<AdminToken>;
  /** When the token stops being reused; set once Keycloak issued it. */
  staleAt?: number;
  settled?: AdminToken;
}

const cacheKey = (server: KeycloakServer): string => JSON.stringify([server.url, server.credentials.namespace, server.credentials.name]);

/**
 * Admin tokens per Keycloak server and credentials Secret, reused until shortly before they expire. Callers
 * asking at the same time share one token request. No refresh token is kept: a new token is asked for with
 * the credentials as the Secret holds them then, which is what makes a rotated Secret take effect.
 */
export class AdminTokenCache {
  readonly #entries = new Map<string, Entry>();
  readonly #options: AdminTokenCacheOptions;
  readonly #now: () => number;
  readonly #marginMs: number;

  constructor(options: AdminTokenCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => Date.now());
    this.#marginMs = options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
  }

  /** A token for `server`: the cached one while it is fresh, else a new one. */
  async token(server: KeycloakServer): Promise<Sensitive> {
    const key = cacheKey(server);
    const entry = this.#entries.get(key);
    const reusable = entry !== undefined && (entry.staleAt === undefined || this.#now() < entry.staleAt);
    return (await (reusable ? entry.token : this.#request(key, server))).token;
  }

  /**
   * Drops `token` after Keycloak refused it (401: revoked, or its user disabled or deleted). A newer token
   * that another caller got meanwhile is kept.
   */
  forget(server: KeycloakServer, token: Sensitive): void {
    const key = cacheKey(server);
    if (this.#entries.get(key)?.settled?.token.equals(token) === true) this.#entries.delete(key);
  }

  #request(key: string, server: KeycloakServer): Promise<AdminToken> {
    const requestedAt = this.#now();
    const token = this.#login(server);
    const entry: Entry = { token };
    this.#entries.set(key, entry);
    token.then(
      (issued) => {
        entry.settled = issued;
        entry.staleAt = requestedAt + issued.lifetimeMs - Math.min(this.#marginMs, issued.lifetimeMs / 2);
      },
      () => {
        // A failed login is not cached: the next caller tries again.
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return token;
  }

  async #login(server: KeycloakServer): Promise<AdminToken> {
    const credentials = await this.#options.readCredentials(server.credentials);
    await this.#options.limiter.acquireToken();
    return requestAdminToken(this.#options.transportFor(server.url), credentials, server.credentials);
  }
}

interface TokenAnswer extends KeycloakObject {
  readonly access_token: string;
  /** Seconds. */
  readonly expires_in?: KeycloakJson;
}

function grantForm(credentials: AdminCredentials): HttpForm {
  return credentials.grant === 'password'
    ? { grant_type: 'password', client_id: ADMIN_CLI, username: credentials.username, password: credentials.password }
    : { grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret };
}

/**
 * Logs in to the master realm. A refused login (wrong or rotated credentials, a disabled account: Keycloak
 * answers 400 or 401) is retryable and reported as 401, so it backs off until the Secret is fixed rather
 * than waiting for a change of the object, which is not where the fault is.
 */
export async function requestAdminToken(transport: HttpTransport, credentials: AdminCredentials, secret: CredentialsSecret): Promise<AdminToken> {
  const who = credentials.grant === 'password' ? `user ${credentials.username}` : `service account ${credentials.clientId}`;
  const description = `log in to Keycloak as ${who} (credentials in Secret ${secret.namespace}/${secret.name})`;
  let response;
  try {
    // Asking again has no effect beyond a second token, so a 5xx or a network failure is retried.
    response = await transport.send({ method: 'POST', path: TOKEN_PATH, operation: 'token', description, form: grantForm(credentials), retry: true });
  } catch (error) {
    if (error instanceof KeywardError && (error.code === 400 || error.code === 401)) {
      throw new KeywardError({ api: error.api, code: 401, reason: 'AdminLoginRefused', message: error.message, retryable: true });
    }
    throw error;
  }
  const body = objectBody<TokenAnswer>(response, ['access_token'], description);
  const expiresIn = body.expires_in;
  if (typeof expiresIn !== 'number' || !(expiresIn > 0)) throw badResponse(response, description, 'no expires_in');
  return { token: sensitive(body.access_token), lifetimeMs: expiresIn * 1000 };
}
