import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { changesAnything, renderPlanJson, renderPlanText, type AnyAction, type AnyQuery, type KubeObject, type Plan } from '@keyward/core';
import type { ApiSet, KubeClient } from '@keyward/core/interpreter';
import { clusterTarget } from '@keyward/core/runtime';
import { reconcileOnce } from '@keyward/core/testing';
import type { PlanConfig } from './config.js';
import { MODULES, moduleConfig, type ErasedModule } from './controllers.js';
import { EXIT_CODES } from './exit-codes.js';
import { wire, type Wiring } from './wiring.js';

/** What `keyward plan` says about one object. */
interface ObjectPlan {
  readonly module: ErasedModule;
  readonly kind: string;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly plan?: Plan;
  readonly invalid?: string;
}

/** The objects to check: those in a manifest file, or those on the cluster selected by namespace and name. */
async function objectsOf(wiring: Wiring, module: ErasedModule, config: PlanConfig): Promise<KubeObject[]> {
  const type = module.definition.primary.type;
  if (config.filename !== undefined) {
    const docs = parseAllDocuments(readFileSync(config.filename, 'utf8')).map((doc) => doc.toJS() as KubeObject | null);
    const wanted = docs.filter((doc): doc is KubeObject => doc?.kind === type.kind);
    // Plan against what the cluster has for them (status included), falling back to the manifest for new ones.
    return Promise.all(wanted.map(async (doc) => (await wiring.kube.get({ type, namespace: doc.metadata.namespace, name: doc.metadata.name })) ?? doc));
  }
  const { items } = await wiring.kube.listAll(type, { namespace: config.namespace });
  return items.filter((object) => config.name === undefined || object.metadata.name === config.name);
}

/** What the module's controller would do with `object`: the same decision the runtime makes, nothing run. */
async function planFor(module: ErasedModule, object: KubeObject, apis: ApiSet<AnyAction, AnyQuery>, wiring: Wiring, config: PlanConfig): Promise<ObjectPlan> {
  const base = { module, kind: module.definition.primary.type.kind, namespace: object.metadata.namespace, name: object.metadata.name };
  const { decision } = await reconcileOnce(module.definition, clusterTarget(wiring.kube, apis), object, { config: moduleConfig(module, config), dryRun: true });
  if (decision.kind === 'invalid') return { ...base, invalid: decision.failure.message };
  if (decision.kind === 'unreadable') throw decision.error;
  return { ...base, plan: decision.plan };
}

function renderText(plans: readonly ObjectPlan[]): string {
  if (plans.length === 0) return 'no objects found';
  return plans
    .map((p) => {
      const title = `${p.kind} ${p.namespace === undefined ? '' : `${p.namespace}/`}${p.name}`;
      if (p.invalid !== undefined) return `${title}\n  invalid spec: ${p.invalid}`;
      return renderPlanText(p.plan ?? { steps: [] }, p.module.definition.apis, title).split('\n').join('\n  ').replace(/^ {2}/, '');
    })
    .join('\n\n');
}

function renderJson(plans: readonly ObjectPlan[]): string {
  return JSON.stringify(
    plans.map((p) => ({
      kind: p.kind,
      namespace: p.namespace,
      name: p.name,
      ...(p.invalid === undefined ? { plan: renderPlanJson(p.plan ?? { steps: [] }, p.module.definition.apis) } : { invalid: p.invalid }),
    })),
    null,
    2,
  );
}

/**
 * What `keyward plan` can plan: the controller modules and the APIs it reads through. The operator's by
 * default; a program that embeds Keyward with controllers of its own passes its own (their types were checked
 * where it listed them).
 */
export interface PlanCatalog {
  readonly modules: readonly ErasedModule[];
  readonly apis: (kube: KubeClient) => ApiSet<AnyAction, AnyQuery>;
}

/**
 * A dry run against the live cluster: for every object of the selected controllers, what the controller
 * would do and why. It only reads (queries through the API, no action is interpreted), so it changes nothing
 * anywhere. Resolves to EXIT_CODES.changes with --exit-code when anything would change, else EXIT_CODES.ok.
 */
export async function planCommand(config: PlanConfig, write: (text: string) => void = (text) => process.stdout.write(text), catalog?: PlanCatalog): Promise<number> {
  const wiring = wire(config);
  try {
    // The operator's types were checked where its modules are listed (coveredModules).
    const apis = catalog?.apis(wiring.kube) ?? (wiring.apis as unknown as ApiSet<AnyAction, AnyQuery>);
    const known = catalog?.modules ?? MODULES;
    const plans: ObjectPlan[] = [];
    for (const name of config.controllers) {
      const module = known.find((candidate) => candidate.definition.name === name);
      if (module === undefined) throw new Error(`no controller named ${name} (known: ${known.map((m) => m.definition.name).join(', ')})`);
      const objects = await objectsOf(wiring, module, config);
      const progress = objects.length > 20 && config.output === 'text';
      for (const [index, object] of objects.entries()) {
        if (progress) process.stderr.write(`\rchecking ${module.definition.primary.type.kind} ${String(index + 1)}/${String(objects.length)}`);
        plans.push(await planFor(module, object, apis, wiring, config));
      }
      if (progress) process.stderr.write('\n');
    }
    write(`${config.output === 'json' ? renderJson(plans) : renderText(plans)}\n`);
    const changes = plans.some((p) => p.plan !== undefined && changesAnything(p.plan));
    return config.exitCode && changes ? EXIT_CODES.changes : EXIT_CODES.ok;
  } finally {
    wiring.close();
  }
}
