import { toKeywardError } from '../../interpreter/interpret.js';
import type { TokenCheck } from './queries.js';

/**
 * The token query's answer for a login that failed: a refusal, an unreachable endpoint or an unreadable
 * password Secret is an answer, not an error. Keystone's message has the password masked already.
 */
export function tokenRefusal(error: unknown): TokenCheck {
  const { reason, message } = toKeywardError(error);
  return { issued: false, reason, message };
}
