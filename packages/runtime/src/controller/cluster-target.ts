import { runQueries, type AnyQuery } from '@keyward/kernel/plan';
import { type AnyAction } from '@keyward/kernel';
import { interpret, type ApiSet } from '@keyward/kernel/interpreter';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import type { ReconcileTarget } from '@keyward/kernel/testing';
import { queryReader } from './query-reader.js';

/**
 * A real cluster (and the APIs of `apis`) as a target of reconcileOnce: reads go to the APIs directly (there
 * are no watches), plans run through the interpreter. What `keyward plan` and integration tests use. A read
 * of a type the API server does not serve fails with a TypeNotServed that names the missing CRD.
 */
export function clusterTarget<A extends AnyAction, Q extends AnyQuery>(kube: KubeClient, apis: ApiSet<A, Q>): ReconcileTarget<A> {
  const read = queryReader(apis.queries({ caches: [] }));
  return {
    get: (ref) => kube.get(ref),
    read: (queries) => runQueries(queries, read),
    run: (plan) => interpret(plan, apis),
  };
}
