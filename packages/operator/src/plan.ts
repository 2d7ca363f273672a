import { changesAnything, deepEqual, type AnyQuery, type GetQuery } from '@keyward/kernel/plan';
import { coreTypes, type KubeObject, type ResourceType } from '@keyward/kernel';
import { KeywardError, controlRuntime, type QueryScope } from '@keyward/kernel/interpreter';
import { type KubeClient } from '@keyward/runtime/io';
import { crdName, isServed, queryReader } from '@keyward/runtime/controller';
import { operatorSandbox } from './apis.js';
import type { PlanConfig } from './config.js';
import { MODULES, type ErasedModule } from './controllers.js';
import { EXIT_CODES } from './exit-codes.js';
import { installHint } from './missing-crds.js';
import { withOperatorSettings, type PlanSettings } from './operator-settings.js';
import { lookUpSettings } from './operator-settings-io.js';
import { asApplied, bodyOf, isKubeObject, isOfType, namespaceOf, readManifest } from './planning/manifest.js';
import { readyCondition } from './planning/conditions.js';
import { renderJson, renderText, renderYaml, type MissingKind, type PlanEntry, type PlannedObject } from './planning/render.js';
import { failsToConverge, type SandboxHandlers } from './planning/rounds.js';
import { KubeSandbox } from './planning/sandbox.js';
import { settingsJson, settingsLine, shownSettings, type ShownSetting } from './planning/settings.js';
import { wire } from './wiring.js';

/**
 * What `keyward plan` can plan: the controller modules and the APIs it reads through. The operator's by
 * default; a program that embeds Keyward with controllers of its own passes its own (their types were checked
 * where it listed them).
 */
export interface PlanCatalog {
  /** The modules, each erased where it is listed (see erasedModule). */
  readonly modules: readonly ErasedModule[];
  /** The APIs that answer the controllers' reads (an ApiSet). */
  readonly apis: (kube: KubeClient) => { queries(scope: QueryScope): object };
  /**
   * Handlers that stand in for the APIs besides Kubernetes in the plan's sandbox, so the reconciles after one
   * that uses them can be shown; those of the operator's API modules by default. A plan that uses an API
   * without one is the last shown.
   */
  readonly sandbox?: () => SandboxHandlers;
}

/** Reconciles planned at most for one object: a creation takes three. */
const MAX_ROUNDS = 6;

/** An object of the file, as it would be once applied. */
interface HeldObject {
  readonly type: ResourceType;
  readonly object: KubeObject;
}

/** What planning needs besides the objects. */
interface Planning {
  readonly kube: KubeClient;
  readonly config: PlanConfig;
  /** Reads from the cluster and the other APIs, as the controllers' queries do (nothing cached). */
  readonly readCluster: (query: AnyQuery) => Promise<unknown>;
  readonly handlers: () => SandboxHandlers;
  readonly known: readonly ErasedModule[];
  readonly now: Date;
}

/** The reconciles a module's controller would run on `object`, in a sandbox that holds `held` besides the cluster. */
async function planObject(module: ErasedModule, object: KubeObject, isNew: boolean, held: readonly HeldObject[], planning: Planning): Promise<PlannedObject> {
  const sandbox = new KubeSandbox(planning.readCluster);
  for (const { type, object: other } of held) sandbox.hold(type, other);
  sandbox.hold(module.definition.primary.type, object);
  const outcome = await module.planRounds(object, planning.config, {
    now: planning.now,
    maxRounds: MAX_ROUNDS,
    sandbox,
    handlers: planning.handlers(),
  });
  const { namespace, name } = object.metadata;
  const current = isNew ? undefined : readyCondition(object);
  return { entry: 'object', kind: module.definition.primary.type.kind, namespace, name, isNew, ...(current === undefined ? {} : { current }), vocabulary: module.definition.apis, outcome };
}

function missing(module: ErasedModule, planning: Planning, inFile?: number): MissingKind {
  const { type } = module.definition.primary;
  return { entry: 'missing', kind: type.kind, crd: crdName(type), hint: installHint(type, planning.known), ...(inFile === undefined ? {} : { inFile }) };
}

/**
 * Every object of the selected controllers on the cluster, in the namespace of -n, else the kubeconfig
 * context's, or in all with -A (as kubectl selects them), narrowed by name.
 */
async function planCluster(modules: readonly ErasedModule[], planning: Planning): Promise<PlanEntry[]> {
  const entries: PlanEntry[] = [];
  const { config } = planning;
  const namespace = config.allNamespaces ? undefined : config.namespace ?? contextNamespace(planning.kube);
  for (const module of modules) {
    const { type } = module.definition.primary;
    let objects: KubeObject[];
    try {
      objects = (await planning.kube.listAll(type, { namespace })).items;
    } catch (error) {
      // A collection the API server does not know: the CRD is not installed, so there is nothing to plan.
      if (error instanceof KeywardError && error.code === 404) {
        entries.push(missing(module, planning));
        continue;
      }
      throw error;
    }
    const selected = objects.filter((object) => config.name === undefined || object.metadata.name === config.name);
    const progress = selected.length > 20 && config.output === 'text';
    for (const [index, object] of selected.entries()) {
      if (progress) process.stderr.write(`\rchecking ${type.kind} ${String(index + 1)}/${String(selected.length)}`);
      entries.push(await planObject(module, object, false, [], planning));
    }
    if (progress) process.stderr.write('\n');
  }
  return entries;
}

/** The kubeconfig context's namespace: what is planned without -n, and where an object of a file without one goes (as kubectl does). */
function contextNamespace(kube: KubeClient): string {
  const config = kube.kubeConfig;
  return config.getContextObject(config.getCurrentContext())?.namespace ?? 'default';
}

/**
 * The objects of a manifest, as they would be once applied: the selected controllers' objects are planned;
 * those and the file's core objects (a password Secret) are in the sandbox for every plan, since they would be
 * applied together.
 */
async function planFile(file: string, modules: readonly ErasedModule[], planning: Planning): Promise<PlanEntry[]> {
  const documents = readManifest(file);
  const fallback = contextNamespace(planning.kube);
  const entries: PlanEntry[] = [];
  const served: ErasedModule[] = [];
  for (const module of modules) {
    const count = documents.filter((document) => isOfType(document, module.definition.primary.type)).length;
    if (count === 0) continue;
    if (await isServed(planning.kube, module.definition.primary.type)) served.push(module);
    else entries.push(missing(module, planning, count));
  }
  const types: readonly { readonly type: ResourceType; readonly module?: ErasedModule }[] = [
    ...served.map((module) => ({ type: module.definition.primary.type, module })),
    ...Object.values(coreTypes).map((type) => ({ type })),
  ];
  const applied: (HeldObject & { readonly module?: ErasedModule; readonly isNew: boolean })[] = [];
  for (const document of documents) {
    const known = types.find(({ type }) => isOfType(document, type));
    if (known === undefined) continue;
    const namespace = namespaceOf(document, known.type, planning.config.namespace, fallback, file);
    const get: GetQuery = { kind: 'k8s.get', ref: { type: known.type, namespace, name: document.metadata.name } };
    const found = await planning.readCluster(get);
    const existing = isKubeObject(found) ? found : undefined;
    applied.push({ ...known, object: asApplied(document, namespace, existing, planning.now, known.module?.sameContent ?? ((a, b) => deepEqual(bodyOf(a), bodyOf(b)))), isNew: existing === undefined });
  }
  for (const module of served) {
    for (const { object, isNew } of applied.filter((entry) => entry.module === module)) {
      const others = applied.filter((entry) => entry.object !== object);
      entries.push(await planObject(module, object, isNew, others, planning));
    }
  }
  return entries;
}

/**
 * Failure when something could not be planned: a read failed, or (for a file) an object is invalid or of a kind
 * whose CRD is missing, as applying it would fail. Otherwise, with --exit-code, whether some object's
 * reconcile would fail, else whether anything would change.
 */
function exitStatus(entries: readonly PlanEntry[], config: PlanConfig): number {
  const fromFile = config.filename !== undefined;
  const failed = entries.some((entry) => entry.entry === 'missing'
    ? fromFile
    : entry.outcome.kind === 'unreadable' || (fromFile && entry.outcome.kind === 'invalid'));
  if (failed) return EXIT_CODES.failure;
  if (!config.exitCode) return EXIT_CODES.ok;
  const objects = entries.flatMap((entry) => (entry.entry === 'object' ? [entry.outcome] : []));
  if (objects.some(failsToConverge)) return EXIT_CODES.fails;
  return objects.some((outcome) => outcome.kind === 'planned' && outcome.plans.some(changesAnything)) ? EXIT_CODES.changes : EXIT_CODES.ok;
}

/** The output in the format --output asks for; the first line of the text says where the settings came from. */
function rendered(entries: readonly PlanEntry[], config: PlanConfig, settings: PlanSettings, shown: readonly ShownSetting[]): string {
  switch (config.output) {
    case 'text': return `${settingsLine(settings, shown, config)}\n\n${renderText(entries)}`;
    case 'json': return renderJson(entries, settingsJson(settings, shown, config));
    case 'yaml': return renderYaml(entries, settingsJson(settings, shown, config));
  }
}

/**
 * A dry run against the live cluster: for every object of the selected controllers (or of a manifest, as it
 * would be once applied), what the controller would do and why, reconcile after reconcile until the object
 * settles. It only reads: each plan is applied to an in-memory sandbox of the cluster, so that the next can be
 * decided, and nothing is written anywhere. The controllers are configured as the running operator's are
 * (the settings it publishes), except for the options given here; the output says which. Resolves to the exit
 * status (see exitStatus).
 */
export async function planCommand(given: PlanConfig, write: (text: string) => void = (text) => process.stdout.write(text), catalog?: PlanCatalog): Promise<number> {
  const wiring = await wire(given);
  try {
    const { config, settings } = withOperatorSettings(given, await lookUpSettings(wiring.kube, given.operatorNamespace));
    const apis = catalog?.apis(wiring.kube) ?? wiring.apis;
    const known = catalog?.modules ?? MODULES;
    const modules = config.controllers.map((name) => {
      const module = known.find((candidate) => candidate.definition.name === name);
      if (module === undefined) throw new Error(`no controller named ${name} (known: ${known.map((m) => m.definition.name).join(', ')})`);
      return module;
    });
    const sandbox = catalog?.sandbox ?? operatorSandbox;
    const planning: Planning = {
      kube: wiring.kube,
      config,
      readCluster: queryReader(apis.queries({ caches: [] })),
      handlers: () => ({ ...controlRuntime.handlers, ...sandbox() }),
      known,
      now: new Date(),
    };
    const entries = config.filename === undefined ? await planCluster(modules, planning) : await planFile(config.filename, modules, planning);
    write(`${rendered(entries, config, settings, shownSettings(modules))}\n`);
    return exitStatus(entries, config);
  } finally {
    wiring.close();
  }
}
