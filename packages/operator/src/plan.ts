import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import { isLeft } from 'fp-ts/lib/Either.js';
import { changesAnything, renderPlanJson, renderPlanText, type ControllerDefinition, type KubeObject, type Plan, type Queries, type ResourceType } from '@keyward/core';
import { QueryRunner } from '@keyward/core/runtime';
import { appCredController, defaultAppCredConfig } from '@keyward/keystone-appcred';
import { apiKeyController } from '@keyward/apikey-enforcement';
import type { PlanConfig, PlanKind } from './config.js';
import { EXIT_CODES } from './exit-codes.js';
import { wire, type Wiring } from './wiring.js';

/** What `keyward plan` says about one object. */
interface ObjectPlan {
  readonly kind: string;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly plan?: Plan;
  readonly invalid?: string;
}

/** One kind `keyward plan` can check: how to find its objects and what its controller would do with one. */
interface Planner {
  readonly type: ResourceType;
  planFor(object: KubeObject, queries: QueryRunner): Promise<ObjectPlan>;
}

function planner<P extends KubeObject, Q extends Queries, C>(definition: ControllerDefinition<P, Q, C>, config: C): Planner {
  return {
    type: definition.primary.type,
    async planFor(object, queries) {
      const base = { kind: definition.primary.type.kind, namespace: object.metadata.namespace, name: object.metadata.name };
      const decoded = definition.primary.decode(object);
      if (isLeft(decoded)) return { ...base, invalid: decoded.left.message };
      const observed = await queries.run(definition.observe(decoded.right, config));
      return { ...base, plan: definition.reconcile({ primary: decoded.right, observed, now: new Date(), config, entropy: randomBytes(32) }) };
    },
  };
}

function planners(config: PlanConfig): Record<PlanKind, Planner> {
  return {
    appcred: planner(appCredController, { ...defaultAppCredConfig, keystoneUrl: config.keystoneUrl }),
    apikey: planner(apiKeyController, { enforcementNamespace: config.enforcementNamespace }),
  };
}

/** The objects to check: those in a manifest file, or those on the cluster selected by namespace and name. */
async function objectsOf(wiring: Wiring, planner: Planner, config: PlanConfig): Promise<KubeObject[]> {
  if (config.filename !== undefined) {
    const docs = parseAllDocuments(readFileSync(config.filename, 'utf8')).map((doc) => doc.toJS() as KubeObject | null);
    const wanted = docs.filter((doc): doc is KubeObject => doc?.kind === planner.type.kind);
    // Plan against what the cluster has for them (status included), falling back to the manifest for new ones.
    return Promise.all(wanted.map(async (doc) => (await wiring.kube.get({ type: planner.type, namespace: doc.metadata.namespace, name: doc.metadata.name })) ?? doc));
  }
  const { items } = await wiring.kube.listAll(planner.type, { namespace: config.namespace });
  return items.filter((object) => config.name === undefined || object.metadata.name === config.name);
}

function renderText(plans: readonly ObjectPlan[]): string {
  if (plans.length === 0) return 'no objects found';
  return plans
    .map((p) => {
      const title = `${p.kind} ${p.namespace === undefined ? '' : `${p.namespace}/`}${p.name}`;
      if (p.invalid !== undefined) return `${title}\n  invalid spec: ${p.invalid}`;
      return renderPlanText(p.plan ?? { steps: [] }, title).split('\n').join('\n  ').replace(/^ {2}/, '');
    })
    .join('\n\n');
}

/**
 * A dry run against the live cluster: for every selected object, what the controller would do and why.
 * It only reads (queries through the API, no action is interpreted), so it changes nothing anywhere.
 * Resolves to EXIT_CODES.changes with --exit-code when anything would change, else EXIT_CODES.ok.
 */
export async function planCommand(config: PlanConfig, write: (text: string) => void = (text) => process.stdout.write(text)): Promise<number> {
  const wiring = wire(config);
  try {
    const queries = new QueryRunner({ kube: wiring.kube, caches: [], ...wiring.keystone });
    const available = planners(config);
    const plans: ObjectPlan[] = [];
    for (const kind of config.kinds) {
      const planner = available[kind];
      const objects = await objectsOf(wiring, planner, config);
      for (const [index, object] of objects.entries()) {
        if (objects.length > 20 && config.output === 'text') process.stderr.write(`\rchecking ${planner.type.kind} ${String(index + 1)}/${String(objects.length)}`);
        plans.push(await planner.planFor(object, queries));
      }
      if (objects.length > 20 && config.output === 'text') process.stderr.write('\n');
    }
    const output = config.output === 'json'
      ? JSON.stringify(plans.map((p) => ({ kind: p.kind, namespace: p.namespace, name: p.name, ...(p.invalid === undefined ? { plan: renderPlanJson(p.plan ?? { steps: [] }) } : { invalid: p.invalid }) })), null, 2)
      : renderText(plans);
    write(`${output}\n`);
    const changes = plans.some((p) => p.plan !== undefined && changesAnything(p.plan));
    return config.exitCode && changes ? EXIT_CODES.changes : EXIT_CODES.ok;
  } finally {
    wiring.kube.close();
  }
}
