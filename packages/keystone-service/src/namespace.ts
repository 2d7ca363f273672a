import { defaultErrorPolicy, type ErrorPolicy } from '@keyward/kernel/plan';
import type { StepReport } from './status.js';

/**
 * What the API server answers a create in a namespace that is being deleted (403: "unable to create new content
 * in namespace <ns> because it is being terminated"). A namespace never comes back from that, so the first such
 * answer is recorded on the Keystone (reason NamespaceTerminating) and nothing is created for it again.
 */
const TERMINATING = 'because it is being terminated';
export const REASON_NAMESPACE_TERMINATING = 'NamespaceTerminating';

export function namespaceTerminating(message: string): StepReport | undefined {
  return message.includes(TERMINATING)
    ? { status: 'False', reason: REASON_NAMESPACE_TERMINATING, message: 'the namespace is being deleted: nothing is created in it any more' }
    : undefined;
}

/** The default policy, but a create refused in a terminating namespace waits (for the Keystone's own deletion) instead of backing off. */
export const keystoneErrorPolicy: ErrorPolicy = (error) =>
  error.api === 'kubernetes' && error.code === 403 && error.message.includes(TERMINATING) ? { next: 'waitForChange', report: true } : defaultErrorPolicy(error);
