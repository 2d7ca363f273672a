import type { Sensitive } from '@keyward/kernel';
import type { KeystoneToken, PasswordAuthRequest } from './client.js';

/** What the cache needs of a client: KeystoneClient fits. */
export interface PasswordAuthenticator {
  readonly endpoint: string;
  authenticate(request: PasswordAuthRequest): Promise<KeystoneToken>;
}

export interface TokenCacheOptions {
  /** Current time in ms since the epoch; injectable for tests. */
  readonly now?: () => number;
  /** Stop reusing a token this long before it expires (default 60 s), so it cannot expire mid-call. */
  readonly refreshMarginMs?: number;
}

interface Entry {
  /** The password the token was obtained with: a changed password must not be answered with an old token. */
  readonly password: Sensitive;
  readonly token: Promise<KeystoneToken>;
  /** Set once the login succeeded; until then callers share the login in flight. */
  settled?: KeystoneToken;
}

const DEFAULT_REFRESH_MARGIN_MS = 60_000;

/** Reuses project-scoped tokens per (endpoint, user, user domain, project, project domain). */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  readonly #marginMs: number;

  constructor(options: TokenCacheOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#marginMs = options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
  }

  /** A token for `request`: the cached one while it is fresh, else a new login (shared by concurrent callers). */
  token(client: PasswordAuthenticator, request: PasswordAuthRequest): Promise<KeystoneToken> {
    const key = cacheKey(client.endpoint, request);
    const entry = this.#entries.get(key);
    const reusable = entry?.password.equals(request.password) === true && (entry.settled === undefined || this.#fresh(entry.settled));
    if (entry !== undefined && reusable) return entry.token;
    return this.#login(key, client, request);
  }

  /** Drops the token for `request`, e.g. after Keystone rejected it (revoked before its expiry). */
  forget(client: Pick<PasswordAuthenticator, 'endpoint'>, request: PasswordAuthRequest): void {
    this.#entries.delete(cacheKey(client.endpoint, request));
  }

  /** Drops whichever entry holds `token`: for callers that only have the session a token went into. */
  forgetToken(token: Sensitive): void {
    for (const [key, entry] of this.#entries) if (entry.settled?.token.equals(token) === true) this.#entries.delete(key);
  }

  #fresh(token: KeystoneToken): boolean {
    return this.#now() < Date.parse(token.expiresAt) - this.#marginMs;
  }

  #login(key: string, client: PasswordAuthenticator, request: PasswordAuthRequest): Promise<KeystoneToken> {
    const token = client.authenticate(request);
    const entry: Entry = { password: request.password, token };
    this.#entries.set(key, entry);
    token.then(
      (value) => {
        entry.settled = value;
      },
      () => {
        // A failed login is not cached: the next caller tries again.
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return token;
  }
}

function cacheKey(endpoint: string, request: PasswordAuthRequest): string {
  return JSON.stringify([endpoint, request.userName, request.userDomain, request.projectName, request.projectDomain]);
}
