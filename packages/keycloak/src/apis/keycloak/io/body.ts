import { Sensitive } from '@keyward/kernel';
import { isOutputRef, type Json, type SecretKeyRef, type Template } from '@keyward/kernel/plan';
import type { HandlerContext } from '@keyward/kernel/interpreter';
import type { KeycloakBody, SecretFields } from '../actions.js';

/** A body ready to send: Sensitive leaves are revealed by the transport, and every secret in it is masked in errors. */
export interface PreparedBody {
  readonly body: Record<string, unknown>;
  readonly secrets: readonly Sensitive[];
}

/** The sensitive values of a template, so that an error quoting what Keycloak echoed masks them. */
function sensitiveLeaves(template: Template | undefined): Sensitive[] {
  if (template instanceof Sensitive) return [template];
  if (template === undefined || template === null || typeof template !== 'object' || isOutputRef(template)) return [];
  const children: readonly (Template | undefined)[] = Array.isArray(template) ? (template as readonly Template[]) : Object.values(template);
  return children.flatMap(sensitiveLeaves);
}

/**
 * Sets `value` at a dotted path (`smtpServer.password`), making the objects on the way. A path ending in `[]`
 * (`config.bindCredential[]`) sets a list of the one value: a component's config holds lists.
 */
function setAtPath(target: Record<string, unknown>, path: string, value: unknown): void {
  if (path.endsWith('[]')) {
    setAtPath(target, path.slice(0, -2), [value]);
    return;
  }
  const keys = path.split('.');
  const last = keys.pop() ?? path;
  let node = target;
  for (const key of keys) {
    const next = node[key];
    const child: Record<string, unknown> = typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
    node[key] = child;
    node = child;
  }
  node[last] = value;
}

/**
 * The body of a create or update: the template with earlier steps' outputs substituted, then each secret
 * field read from its Secret (now, so plans never hold it) and set at its path.
 */
export async function prepareBody(
  template: KeycloakBody | undefined,
  secretFields: SecretFields | undefined,
  context: HandlerContext,
  readSecret: (ref: SecretKeyRef) => Promise<Sensitive>,
): Promise<PreparedBody> {
  const resolved: Json = template === undefined ? {} : context.resolveTemplate(template);
  const body: Record<string, unknown> = typeof resolved === 'object' && resolved !== null && !Array.isArray(resolved) ? resolved : {};
  const secrets = sensitiveLeaves(template);
  for (const [path, ref] of Object.entries(secretFields ?? {})) {
    const value = await readSecret(ref);
    setAtPath(body, path, value);
    secrets.push(value);
  }
  return { body, secrets };
}
