import { Sensitive, coreTypes, sensitive } from '@keyward/kernel';
import { type KeystoneAction, type SecretKeyRef } from '@keyward/kernel/plan';
import { secretKeyValue, type HandlerContext, type HandlerTable } from '@keyward/kernel/interpreter';

/** What stands for a value only Keystone can give; a credential's Secret is named after its first characters. */
export const KNOWN_AFTER_APPLY = 'known-after-apply';

/**
 * Refuses a password Secret as the Keystone handler would (missing, not opted in, without the key), read from
 * the plan's sandbox; the password itself is dropped unread by anything else.
 */
async function checkPassword(ref: SecretKeyRef, context: HandlerContext): Promise<void> {
  if (context.readObject === undefined) throw new Error('the plan\'s Keystone stand-in needs the sandbox\'s reads');
  secretKeyValue(await context.readObject({ type: coreTypes.secret, namespace: ref.namespace, name: ref.name }), ref);
}

/**
 * Keystone in a plan's sandbox: nothing is sent, and what Keystone would return is a stand-in
 * (`known-after-apply`), so the reconciles that follow can be planned. A login whose password Secret the
 * handler would refuse (see secretKeyValue) fails here too, with the same error, since that needs only the
 * cluster; every other step succeeds. Keystone's one read, the token query (whether its API issues tokens),
 * is no step: the plan asks the live Keystone, as the controllers' other reads of their APIs do.
 */
export function keystoneSandbox(): HandlerTable<KeystoneAction> {
  let created = 0;
  return {
    'keystone.authenticate': async (action, context) => {
      if (!(action.password instanceof Sensitive)) await checkPassword(action.password, context);
      return { outcome: 'unchanged', outputs: { session: { endpoint: action.endpoint, token: sensitive(KNOWN_AFTER_APPLY), userId: KNOWN_AFTER_APPLY } } };
    },
    'keystone.createApplicationCredential': (action) => {
      created += 1;
      const id = `${KNOWN_AFTER_APPLY}-${String(created)}`;
      // Keystone stores the expiry it was asked for, at microsecond precision.
      return Promise.resolve({ outcome: 'applied', outputs: { id, name: action.name, secret: sensitive(KNOWN_AFTER_APPLY), expiresAt: action.expiresAt?.slice(0, 26) ?? null } });
    },
    'keystone.revokeApplicationCredential': () => Promise.resolve({ outcome: 'applied', outputs: {} }),
  };
}
