// A domain and an API that core knows nothing about, written entirely outside core's source: an append-only
// ledger (standing in for any outside system) and a controller that records labelled ConfigMaps in it.
// Everything a new domain needs is here: the API's types, presentations, handler, query answer and
// simulator, and the controller definition that declares the APIs it uses.
import { right } from 'fp-ts/lib/Either.js';
import { PlanBuilder, coreTypes, kubernetesApi, controlApi, vocabulary, type AnyAction, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { type AnyQuery, defineApi, type ControlAction, type KubernetesAction, type Produces, type Returns } from '@keyward/kernel/plan';
import { defineApiRuntime, type ApiRuntime } from '@keyward/kernel/interpreter';
import type { ApiSimulator } from '@keyward/kernel/testing';

// The pure half: types and presentations.

/** Appends an entry; the step gives its position for later steps. */
export interface AppendAction extends AnyAction, Produces<{ readonly position: number }> {
  readonly kind: 'ledger.append';
  readonly entry: string;
}

/** Every entry, in order. */
export interface EntriesQuery extends AnyQuery, Returns<readonly string[]> {
  readonly kind: 'ledger.entries';
}

export const ledgerApi = defineApi<AppendAction, EntriesQuery>({
  name: 'ledger',
  actions: { 'ledger.append': { describe: () => 'append an entry to the ledger', details: (action) => [`+ entry: ${JSON.stringify(action.entry)}`] } },
  queries: { 'ledger.entries': { describe: () => 'read the ledger' } },
});

// The side that does the work: an in-process ledger stands in for a remote system.

export class Ledger {
  readonly entries: string[] = [];
}

export function ledgerRuntime(ledger: Ledger): ApiRuntime<AppendAction, EntriesQuery> {
  return defineApiRuntime({
    api: ledgerApi,
    handlers: {
      'ledger.append': (action) => Promise.resolve({ outcome: 'applied', outputs: { position: ledger.entries.push(action.entry) - 1 } }),
    },
    queries: () => ({ 'ledger.entries': () => Promise.resolve([...ledger.entries]) }),
  });
}

/** For InMemoryWorld: `new InMemoryWorld({ ledger: simulateLedger })`. */
export function simulateLedger(): ApiSimulator<AppendAction, EntriesQuery> & { readonly ledger: Ledger } {
  const ledger = new Ledger();
  const runtime = ledgerRuntime(ledger);
  return { api: ledgerApi, handlers: runtime.handlers, answers: { 'ledger.entries': () => [...ledger.entries] }, ledger };
}

// The domain: ConfigMaps labelled for the ledger are recorded in it once.

export const RECORD_LABEL = 'ledger.example/record';

export type LedgerAction = KubernetesAction | ControlAction | AppendAction;

interface LedgerQueries {
  readonly [name: string]: EntriesQuery | undefined;
  readonly entries: EntriesQuery;
}

/** What a ConfigMap is recorded as. */
export function entryOf(configMap: KubeObject): string {
  const message = (configMap['data'] as Readonly<Record<string, string>> | undefined)?.['message'] ?? '';
  return `${configMap.metadata.namespace ?? ''}/${configMap.metadata.name}: ${message}`;
}

export const ledgerController: ControllerDefinition<KubeObject, LedgerQueries, null, LedgerAction> = {
  name: 'ledger-recorder',
  apis: vocabulary(kubernetesApi, controlApi, ledgerApi),
  primary: { type: coreTypes.configMap, decode: (object) => right(object) },
  secondary: () => [],
  observe: () => ({ entries: { kind: 'ledger.entries' } }),
  reconcile: ({ primary, observed }) => {
    const plan = new PlanBuilder<LedgerAction>();
    const entry = entryOf(primary);
    if (primary.metadata.labels?.[RECORD_LABEL] !== 'true' || observed.entries.includes(entry)) return plan.build();
    plan.add({ kind: 'ledger.append', entry }, 'the ConfigMap is not in the ledger yet');
    plan.add({ kind: 'k8s.event', regarding: { type: coreTypes.configMap, namespace: primary.metadata.namespace, name: primary.metadata.name, uid: primary.metadata.uid }, type: 'Normal', reason: 'Recorded', note: 'recorded in the ledger', action: 'Record' }, 'say so');
    return plan.build();
  },
  reportFailure: () => ({ steps: [] }),
  reportInvalid: () => ({ steps: [] }),
};
