import type { AnyAction, AnyQuery } from '../plan/actions.js';
import { runQueries } from '../plan/queries.js';
import type { ApiSet } from '../interpreter/api-runtime.js';
import { interpret } from '../interpreter/interpret.js';
import type { QueryHandler } from '../interpreter/types.js';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import type { ReconcileTarget } from '../testing/reconcile-once.js';

/**
 * A real cluster (and the APIs of `apis`) as a target of reconcileOnce: reads go to the APIs directly (there
 * are no watches), plans run through the interpreter. What `keyward plan` and integration tests use.
 */
export function clusterTarget<A extends AnyAction, Q extends AnyQuery>(kube: KubeClient, apis: ApiSet<A, Q>): ReconcileTarget<A> {
  const answers: object = apis.queries({ caches: [] });
  return {
    get: (ref) => kube.get(ref),
    read: (queries) => runQueries(queries, (query) => {
      const answer = (answers as Readonly<Record<string, QueryHandler<AnyQuery> | undefined>>)[query.kind];
      if (answer === undefined) throw new Error(`no API module answers ${query.kind}`);
      return answer(query);
    }),
    run: (plan) => interpret(plan, apis),
  };
}
