import { createHash } from 'node:crypto';
import { Sensitive, sensitive } from '../../model/sensitive.js';
import { KeywardError } from '../../interpreter/errors.js';
import type { HandlerTable, QueryTable } from '../../interpreter/types.js';
import type { SimulatedKubernetes } from '../kubernetes/simulator.js';
import type { ApplicationCredentialSummary, KeystoneAction, KeystoneSession } from './actions.js';
import { keystoneApi } from './api.js';
import type { KeystoneQuery, KeystoneTokenQuery, TokenCheck } from './queries.js';
import { tokenRefusal } from './token-check.js';

interface StoredCredential extends ApplicationCredentialSummary {
  readonly userId: string;
  readonly secret: string;
}

interface KeystoneUser {
  readonly id: string;
  readonly name: string;
  readonly password: string;
}

function fail(code: number, reason: string, message: string, api = 'keystone'): never {
  throw new KeywardError({ api, code, reason, message, retryable: code >= 500 || code === 409 });
}

/** An in-memory Keystone: users with passwords, and their application credentials. */
export class SimulatedKeystone {
  readonly api = keystoneApi;
  readonly #kube: SimulatedKubernetes;
  readonly #users = new Map<string, KeystoneUser>();
  readonly #credentials = new Map<string, StoredCredential>();
  #counter = 0;

  /** Passwords that authenticate actions name by Secret are read from `kube`. */
  constructor(kube: SimulatedKubernetes) {
    this.#kube = kube;
  }

  addUser(name: string, password: string): string {
    const id = `user-${name}`;
    this.#users.set(name, { id, name, password });
    return id;
  }

  /** Credentials of a user as Keystone would list them (no secrets). */
  credentials(userId: string): ApplicationCredentialSummary[] {
    return [...this.#credentials.values()].filter((c) => c.userId === userId).map(({ id, name, description, expiresAt }) => ({ id, name, description, expiresAt }));
  }

  /** Whether `id` + `secret` would authenticate. */
  credentialWorks(id: string, secret: string): boolean {
    return this.#credentials.get(id)?.secret === secret;
  }

  #login(userName: string, password: Sensitive): KeystoneSession {
    const user = this.#users.get(userName);
    if (user?.password !== password.reveal()) fail(401, 'Unauthorized', `authenticate as ${userName}: HTTP 401`);
    return { endpoint: 'memory', token: sensitive(`token-${user.id}`), userId: user.id };
  }

  get handlers(): HandlerTable<KeystoneAction> {
    return {
      'keystone.authenticate': (action) => {
        const password = action.password instanceof Sensitive ? action.password : this.#kube.readSecretKey(action.password);
        return Promise.resolve({ outcome: 'unchanged', outputs: { session: this.#login(action.userName, password) } });
      },
      'keystone.createApplicationCredential': (action, context) => {
        const session = context.resolve(action.session);
        if ([...this.#credentials.values()].some((c) => c.userId === session.userId && c.name === action.name)) fail(409, 'Conflict', `application credential ${action.name} exists`);
        // Keystone ids are 32 hex characters; derived from a counter so runs are repeatable.
        this.#counter += 1;
        const id = createHash('sha256').update(String(this.#counter)).digest('hex').slice(0, 32);
        const secret = `secret-${id}`;
        const expiresAt = action.expiresAt === undefined ? null : action.expiresAt.slice(0, 26);
        this.#credentials.set(id, { id, name: action.name, description: action.description, expiresAt, userId: session.userId, secret });
        return Promise.resolve({ outcome: 'applied', outputs: { id, name: action.name, secret: sensitive(secret), expiresAt } });
      },
      'keystone.revokeApplicationCredential': (action, context) => {
        const session = context.resolve(action.session);
        const { name, keep = [] } = action;
        const ids = name === undefined ? [context.resolve(action.id)] : this.credentials(session.userId).filter((c) => c.name === name && !keep.includes(c.id)).map((c) => c.id);
        const removed = ids.filter((id) => this.#credentials.delete(id)).length > 0;
        return Promise.resolve({ outcome: removed ? 'applied' : 'unchanged', outputs: {} });
      },
    };
  }

  /** A fresh login, as the token query asks for one; synchronous, as the world's answers are. */
  #tokenCheck(query: KeystoneTokenQuery): TokenCheck {
    try {
      this.#login(query.userName, this.#kube.readSecretKey(query.password));
      return { issued: true };
    } catch (error) {
      return tokenRefusal(error);
    }
  }

  get answers(): QueryTable<KeystoneQuery> {
    return {
      'keystone.token': (query) => this.#tokenCheck(query),
    };
  }
}

/** For InMemoryWorld: `new InMemoryWorld({ keystone: simulateKeystone })`. */
export function simulateKeystone(kube: SimulatedKubernetes): SimulatedKeystone {
  return new SimulatedKeystone(kube);
}
