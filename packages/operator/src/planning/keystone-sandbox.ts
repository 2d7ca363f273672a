import { sensitive, type KeystoneAction } from '@keyward/core';
import type { HandlerTable } from '@keyward/core/interpreter';

/** What stands for a value only Keystone can give; a credential's Secret is named after its first characters. */
export const KNOWN_AFTER_APPLY = 'known-after-apply';

/**
 * Keystone in a plan's sandbox: nothing is sent, every step succeeds, and what Keystone would return is a
 * stand-in (`known-after-apply`), so the reconciles that follow can be planned. Keystone has no reads that a
 * reconcile makes, so nothing a later reconcile sees depends on Keystone's answers beyond these outputs.
 */
export function keystoneSandbox(): HandlerTable<KeystoneAction> {
  let created = 0;
  return {
    'keystone.authenticate': (action) =>
      Promise.resolve({ outcome: 'unchanged', outputs: { session: { endpoint: action.endpoint, token: sensitive(KNOWN_AFTER_APPLY), userId: KNOWN_AFTER_APPLY } } }),
    'keystone.createApplicationCredential': (action) => {
      created += 1;
      const id = `${KNOWN_AFTER_APPLY}-${String(created)}`;
      // Keystone stores the expiry it was asked for, at microsecond precision.
      return Promise.resolve({ outcome: 'applied', outputs: { id, name: action.name, secret: sensitive(KNOWN_AFTER_APPLY), expiresAt: action.expiresAt?.slice(0, 26) ?? null } });
    },
    'keystone.revokeApplicationCredential': () => Promise.resolve({ outcome: 'applied', outputs: {} }),
  };
}
