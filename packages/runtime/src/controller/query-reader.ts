import type { AnyQuery, GetQuery } from '@keyward/kernel/plan';
import type { ObjectRef, ResourceType, KubeObject } from '@keyward/kernel';
import { KeywardError, type QueryHandler } from '@keyward/kernel/interpreter';
import { TypeNotServed } from './served-types.js';

/** The type a query reads, when it names one (a list names it; a get answers a 404 with "absent" instead). */
function typeRead(query: AnyQuery): ResourceType | undefined {
  const type: unknown = (query as { readonly type?: unknown }).type;
  if (typeof type !== 'object' || type === null) return undefined;
  const { group, version, plural } = type as Partial<Record<keyof ResourceType, unknown>>;
  return typeof group === 'string' && typeof version === 'string' && typeof plural === 'string' ? (type as ResourceType) : undefined;
}

/**
 * Reads each query with the answer the API modules give for its kind. A Kubernetes 404 for a collection
 * means the API server does not serve the type at all, which says nothing to a person as "NotFound": it
 * becomes a TypeNotServed that names the CRD to install.
 */
export function queryReader(answers: object): (query: AnyQuery) => Promise<unknown> {
  const table = answers as Readonly<Record<string, QueryHandler<AnyQuery> | undefined>>;
  return async (query) => {
    const answer = table[query.kind];
    if (answer === undefined) throw new Error(`no API module answers ${query.kind}`);
    try {
      return await answer(query);
    } catch (error) {
      const type = typeRead(query);
      if (type === undefined || !(error instanceof KeywardError) || error.api !== 'kubernetes' || error.code !== 404) throw error;
      const namespace = (query as { readonly namespace?: unknown }).namespace;
      throw new TypeNotServed(type, `list ${type.plural}${typeof namespace === 'string' && namespace !== '' ? ` in ${namespace}` : ''}`);
    }
  };
}

/**
 * A get as the controller's queries answer it (from its caches when one covers the object), for the handlers
 * of its plans (HandlerContext.readObject); undefined when no API module answers gets.
 */
export function objectReader(answers: object): ((ref: ObjectRef) => Promise<KubeObject | undefined>) | undefined {
  const get = (answers as Readonly<Record<string, QueryHandler<GetQuery> | undefined>>)['k8s.get'];
  return get === undefined ? undefined : async (ref) => get({ kind: 'k8s.get', ref });
}
