import type { Sensitive } from '@keyward/kernel';
import { KeywardError } from '@keyward/kernel/interpreter';
import { type HttpRequest, type HttpResponse, type HttpTransport } from '@keyward/runtime/io';
import type { KeycloakCall } from '../actions.js';
import type { AdminTokenCache } from './tokens.js';

/** An admin API request: its path is relative to /admin; the token and the tenant charged are the client's business. */
export type AdminRequest = Omit<HttpRequest, 'token' | 'tenant'>;

export interface KeycloakAdminClientOptions {
  /** The transport of a server URL (one per server, so each has its own breaker); its tenant limiter takes turns between namespaces. */
  readonly transportFor: (url: string) => HttpTransport;
  readonly tokens: AdminTokenCache;
}

/**
 * Sends admin API requests to whichever server a call names, with the server's admin token, charged to the
 * call's namespace: the transport's rate limiter takes turns between namespaces. A token Keycloak refuses (401) is
 * forgotten and the request is sent once more with a new one, logged in with the credentials the Secret
 * holds now.
 */
export class KeycloakAdminClient {
  readonly #options: KeycloakAdminClientOptions;

  constructor(options: KeycloakAdminClientOptions) {
    this.#options = options;
  }

  async send(call: KeycloakCall, request: AdminRequest): Promise<HttpResponse> {
    const first = await this.#sendOnce(call, request);
    if (first.response.status !== 401) return first.response;
    this.#options.tokens.forget(call.server, first.token);
    const second = await this.#sendOnce(call, request);
    if (second.response.status !== 401) return second.response;
    this.#options.tokens.forget(call.server, second.token);
    throw new KeywardError({
      api: 'keycloak',
      code: 401,
      reason: 'Unauthorized',
      message: `${request.description}: HTTP 401: Keycloak refused a new admin token too (credentials in Secret ${call.server.credentials.namespace}/${call.server.credentials.name})`,
      retryable: true,
    });
  }

  /** One request; a 401 comes back as an answer, so that `send` can log in again. */
  async #sendOnce(call: KeycloakCall, request: AdminRequest): Promise<{ readonly response: HttpResponse; readonly token: Sensitive }> {
    // The token before the limiter's turn: requests that took their turn and then all waited for one login
    // would go out together, above the rate. One that expires while its request waits is answered 401, and
    // `send` logs in again.
    const token = await this.#options.tokens.token(call.server);
    const response = await this.#options.transportFor(call.server.url).send({
      ...request,
      path: `/admin${request.path}`,
      token,
      tenant: call.chargeTo,
      accept: [...(request.accept ?? []), 401],
    });
    return { response, token };
  }
}
