import { sensitive, type Sensitive } from '@keyward/kernel';
import { type ApplicationCredentialSummary, type CreatedApplicationCredential as CreatedCredentialOutput, type KeystoneAccessRule as AccessRule } from '@keyward/kernel/plan';
import type { EndpointAvailability } from '@keyward/kernel/interpreter';
import { ApplicationCredentialListBody, CreatedApplicationCredentialBody, TokenBody, badResponse, decodeBody } from './decode.js';
import type { HttpTransport } from '../../../io/http/transport.js';
import { keystoneTransport, type KeystoneResponse, type KeystoneTransportOptions } from './transport.js';

export type { KeystoneLimiterOptions, KeystoneRequestInfo, KeystoneRequestObserver } from './transport.js';
export type { AccessRule, ApplicationCredentialSummary };

export type KeystoneClientOptions = KeystoneTransportOptions;

/** Password authentication scoped to a project; domains are given by name ("Default"). */
export interface PasswordAuthRequest {
  readonly userName: string;
  readonly userDomain: string;
  readonly password: Sensitive;
  readonly projectName: string;
  readonly projectDomain: string;
}

export interface KeystoneToken {
  readonly token: Sensitive;
  readonly userId: string;
  /** ISO 8601 UTC. */
  readonly expiresAt: string;
}

export interface ApplicationCredentialRequest {
  readonly name: string;
  readonly description: string;
  /** Role names; the credential gets these roles on the token's project. */
  readonly roles: readonly string[];
  /** When present and non-empty, the credential may call only these APIs. */
  readonly accessRules?: readonly AccessRule[];
  /** Whether the credential may create further credentials and trusts. */
  readonly unrestricted: boolean;
  /** ISO 8601; undefined for a credential that never expires. */
  readonly expiresAt: string | undefined;
}

/** What Keystone returns at creation: the plan's output plus the granted roles and rules. */
export interface CreatedApplicationCredential extends CreatedCredentialOutput {
  readonly roles: readonly string[];
  readonly accessRules: readonly AccessRule[];
}

export interface ApplicationCredentialLogin {
  readonly id: string;
  readonly secret: Sensitive;
}

const usersPath = (userId: string): string => `/users/${encodeURIComponent(userId)}/application_credentials`;

/**
 * Keystone Identity v3 calls Keyward needs, against one endpoint. Create one client per endpoint: the limiter
 * that protects Keystone and the breaker that stops asking it while it is down live in the client.
 */
export class KeystoneClient {
  readonly #transport: HttpTransport;

  constructor(options: KeystoneClientOptions) {
    this.#transport = keystoneTransport(options);
  }

  /** The base URL, without a trailing slash; part of a token cache key. */
  get endpoint(): string {
    return this.#transport.baseUrl;
  }

  /** The endpoint's availability; while it is unavailable, calls fail at once with a retryable Unavailable error. */
  get availability(): EndpointAvailability {
    return this.#transport.availability;
  }

  async authenticate(request: PasswordAuthRequest): Promise<KeystoneToken> {
    const description = `authenticate user ${request.userName} (domain ${request.userDomain}) on project ${request.projectName} (domain ${request.projectDomain})`;
    const body = {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: request.userName, domain: { name: request.userDomain }, password: request.password } },
        },
        scope: { project: { name: request.projectName, domain: { name: request.projectDomain } } },
      },
    };
    return this.#issueToken('authenticate', description, body);
  }

  async authenticateWithApplicationCredential(login: ApplicationCredentialLogin): Promise<KeystoneToken> {
    const description = `authenticate with application credential ${login.id}`;
    const body = {
      auth: {
        identity: {
          methods: ['application_credential'],
          application_credential: { id: login.id, secret: login.secret },
        },
      },
    };
    return this.#issueToken('authenticate_application_credential', description, body);
  }

  /** POST /auth/tokens; the body's secret is revealed only when sent, and masked in any error Keystone echoes it in. */
  async #issueToken(operation: string, description: string, body: object): Promise<KeystoneToken> {
    const response = await this.#transport.send({ method: 'POST', path: '/auth/tokens', operation, description, body });
    return tokenFrom(response, description);
  }

  async createApplicationCredential(
    token: Sensitive,
    userId: string,
    request: ApplicationCredentialRequest,
  ): Promise<CreatedApplicationCredential> {
    const description = `create application credential ${request.name} for user ${userId}`;
    const accessRules = request.accessRules ?? [];
    const body = {
      application_credential: {
        name: request.name,
        description: request.description,
        roles: request.roles.map((name) => ({ name })),
        unrestricted: request.unrestricted,
        expires_at: request.expiresAt ?? null,
        // Sent only when there are rules: without access_rules the credential is not limited to particular APIs.
        ...(accessRules.length === 0 ? {} : { access_rules: accessRules.map(({ service, path, method }) => ({ service, path, method })) }),
      },
    };
    const response = await this.#transport.send({
      method: 'POST',
      path: usersPath(userId),
      operation: 'create_application_credential',
      description,
      token,
      body,
    });
    const created = decodeBody(CreatedApplicationCredentialBody, response, description).application_credential;
    return {
      id: created.id,
      name: created.name,
      secret: sensitive(created.secret),
      expiresAt: created.expires_at,
      roles: created.roles.map((role) => role.name),
      accessRules: (created.access_rules ?? []).map(({ service, path, method }) => ({ service, path, method })),
    };
  }

  /** The user's application credentials, optionally only those named `name`. Secrets are never listed. */
  async listApplicationCredentials(
    token: Sensitive,
    userId: string,
    filter: { readonly name?: string } = {},
  ): Promise<ApplicationCredentialSummary[]> {
    const description = `list application credentials of user ${userId}`;
    const response = await this.#transport.send({
      method: 'GET',
      path: usersPath(userId),
      ...(filter.name === undefined ? {} : { query: { name: filter.name } }),
      operation: 'list_application_credentials',
      description,
      token,
    });
    return decodeBody(ApplicationCredentialListBody, response, description).application_credentials.map((credential) => ({
      id: credential.id,
      name: credential.name,
      expiresAt: credential.expires_at,
      description: credential.description ?? null,
    }));
  }

  /** Deletes a credential; one that is already gone is reported as 'absent' rather than as an error. */
  async revokeApplicationCredential(token: Sensitive, userId: string, id: string): Promise<'revoked' | 'absent'> {
    const response = await this.#transport.send({
      method: 'DELETE',
      path: `${usersPath(userId)}/${encodeURIComponent(id)}`,
      operation: 'revoke_application_credential',
      description: `revoke application credential ${id} of user ${userId}`,
      token,
      accept: [404],
      // Tried once, as Keystone's revoke always was: the reconcile that asked for it is requeued on failure.
      retry: false,
    });
    return response.status === 404 ? 'absent' : 'revoked';
  }
}

/** A token from an /auth/tokens answer: the value is in X-Subject-Token, the facts in the body. */
function tokenFrom(response: KeystoneResponse, description: string): KeystoneToken {
  const facts = decodeBody(TokenBody, response, description).token;
  const token = response.headers['x-subject-token'];
  if (token === undefined || token === '') throw badResponse(response, description, 'no X-Subject-Token header');
  return { token: sensitive(token), userId: facts.user.id, expiresAt: facts.expires_at };
}
