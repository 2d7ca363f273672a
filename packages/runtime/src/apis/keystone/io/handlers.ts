import { Sensitive } from '@keyward/kernel';
import { type KeystoneAction, type KeystoneSession, type SecretKeyRef } from '@keyward/kernel/plan';
import { KeywardError, type HandlerContext, type HandlerTable } from '@keyward/kernel/interpreter';
import type { KeystoneClient } from './client.js';
import type { TokenCache } from './token-cache.js';

export interface KeystoneHandlerDependencies {
  /** The client for an endpoint (one per endpoint, so each has its own limiter). */
  readonly clientFor: (endpoint: string) => KeystoneClient;
  /** Reuses a user's token until shortly before it expires. */
  readonly tokens: TokenCache;
  /** Reads a password kept in a Secret, when an authenticate action names one (through the context's reads when it has them). */
  readonly readSecretKey: (ref: SecretKeyRef, context: HandlerContext) => Promise<Sensitive>;
}

/**
 * Handlers for the Keystone actions. Authentication goes through the token cache (but fails while Keystone is
 * known to be down); a token Keystone rejects (revoked before it expired) is dropped from the cache so the next
 * reconcile logs in again.
 */
export function keystoneHandlers({ clientFor, tokens, readSecretKey }: KeystoneHandlerDependencies): HandlerTable<KeystoneAction> {
  const withSession = async <T>(session: KeystoneSession, call: (client: KeystoneClient) => Promise<T>): Promise<T> => {
    try {
      return await call(clientFor(session.endpoint));
    } catch (error) {
      if (error instanceof KeywardError && error.code === 401) tokens.forgetToken(session.token);
      throw error;
    }
  };
  return {
    'keystone.authenticate': async (action, context) => {
      const client = clientFor(action.endpoint);
      // A session serves only calls to Keystone: while it is known to be down, a login answered from the token
      // cache fails as they would, so a plan stops there rather than after the writes between it and them.
      const refusal = client.availability.refusal(`log in as ${action.userName}`);
      if (refusal !== undefined) throw refusal;
      const password = action.password instanceof Sensitive ? action.password : await readSecretKey(action.password, context);
      const token = await tokens.token(client, { ...action, password });
      const session: KeystoneSession = { endpoint: action.endpoint, token: token.token, userId: token.userId };
      return { outcome: 'unchanged', outputs: { session } };
    },

    'keystone.createApplicationCredential': async (action, context) => {
      const session = context.resolve(action.session);
      const created = await withSession(session, (client) => client.createApplicationCredential(session.token, session.userId, {
        name: action.name,
        description: action.description,
        roles: action.roles,
        ...(action.accessRules === undefined ? {} : { accessRules: action.accessRules }),
        unrestricted: action.unrestricted,
        expiresAt: action.expiresAt,
      }));
      return { outcome: 'applied', outputs: { id: created.id, name: created.name, secret: created.secret, expiresAt: created.expiresAt } };
    },

    'keystone.revokeApplicationCredential': async (action, context) => {
      const session = context.resolve(action.session);
      const { name, keep = [] } = action;
      const ids = name === undefined
        ? [context.resolve(action.id)]
        : (await withSession(session, (client) => client.listApplicationCredentials(session.token, session.userId, { name }))).map((c) => c.id).filter((id) => !keep.includes(id));
      let revoked = false;
      for (const id of ids) {
        const result = await withSession(session, (client) => client.revokeApplicationCredential(session.token, session.userId, id));
        revoked ||= result === 'revoked';
      }
      return { outcome: revoked ? 'applied' : 'unchanged', outputs: {} };
    },
  };
}
