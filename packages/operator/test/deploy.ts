// Reads the manifests in deploy/ for the tests, and builds kustomizations with the few kustomize features they
// use (resources, patches with a target: JSON 6902 `replace` and `$patch: delete`). Anything else throws, so a
// manifest cannot rely on a feature these tests do not model.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

export const DEPLOY_DIR = fileURLToPath(new URL('../../../deploy', import.meta.url));
/** Where deploy/base puts the operator. */
export const OPERATOR_NAMESPACE = 'keyward-system';

export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly [field: string]: unknown;
}

interface Target {
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

interface Kustomization {
  readonly resources?: readonly string[];
  readonly patches?: readonly { readonly target?: Target; readonly patch?: string }[];
}

const KUSTOMIZATION = 'kustomization.yaml';
const KNOWN_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'patches']);

/** Every YAML file under `dir`, recursively, sorted. */
export function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.ya?ml$/.test(path))
    .sort()
    .map((path) => join(dir, path));
}

/** The documents of a YAML file; a syntax error or a duplicate key throws. */
export function readDocuments(path: string): unknown[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).map((document) => {
    const problem = document.errors[0];
    if (problem !== undefined) throw new Error(`${path}: ${problem.message}`);
    return document.toJS() as unknown;
  }).filter((value) => value !== null);
}

/** The objects of the manifests in `dir` (not its kustomization), in file order. */
export function manifestsIn(dir: string): Manifest[] {
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name) && name !== KUSTOMIZATION)
    .sort()
    .flatMap((name) => readDocuments(join(dir, name)) as Manifest[]);
}

/**
 * The objects of deploy/base read file by file (no kustomize): the CRDs and the operator (deploy/operator) it
 * includes, and its RBAC.
 */
export function baseManifests(): Manifest[] {
  const crds = manifestsIn(join(DEPLOY_DIR, 'crds')).filter((object) => object.kind === 'CustomResourceDefinition');
  return [...crds, ...manifestsIn(join(DEPLOY_DIR, 'operator')), ...manifestsIn(join(DEPLOY_DIR, 'base'))];
}

export function readKustomization(dir: string): Kustomization {
  const kustomization = parse(readFileSync(join(dir, KUSTOMIZATION), 'utf8')) as Kustomization & Record<string, unknown>;
  const unknown = Object.keys(kustomization).filter((field) => !KNOWN_FIELDS.has(field));
  if (unknown.length > 0) throw new Error(`${dir}/${KUSTOMIZATION}: fields these tests do not model: ${unknown.join(', ')}`);
  return kustomization;
}

/**
 * Why kustomize would refuse a resource entry, or undefined: a file must be in or below the kustomization's
 * folder (kustomize's default load restrictor), a folder must have a kustomization.yaml.
 */
export function resourceProblem(dir: string, entry: string): string | undefined {
  const path = resolve(dir, entry);
  if (!existsSync(path)) return `${entry} does not exist`;
  if (statSync(path).isDirectory()) return existsSync(join(path, KUSTOMIZATION)) ? undefined : `${entry} is a folder without a ${KUSTOMIZATION}`;
  return path.startsWith(dir + sep) ? undefined : `${entry} is a file outside ${relative(DEPLOY_DIR, dir)} (kustomize loads files only from in or below it)`;
}

/** What `kustomize build dir` gives, for the features modelled here. */
export function kustomizeBuild(dir: string): Manifest[] {
  const kustomization = readKustomization(dir);
  let objects = (kustomization.resources ?? []).flatMap((entry) => {
    const problem = resourceProblem(dir, entry);
    if (problem !== undefined) throw new Error(`${relative(DEPLOY_DIR, dir)}: ${problem}`);
    const path = resolve(dir, entry);
    return statSync(path).isDirectory() ? kustomizeBuild(path) : (readDocuments(path) as Manifest[]);
  });
  for (const { target, patch } of kustomization.patches ?? []) {
    if (target === undefined || patch === undefined) throw new Error(`${dir}: only inline patches with a target are modelled`);
    const matches = objects.filter((object) => matchesTarget(object, target));
    if (matches.length === 0) throw new Error(`${dir}: patch target ${JSON.stringify(target)} matches nothing`);
    const body = parse(patch) as unknown;
    if (Array.isArray(body)) {
      objects = objects.map((object) => (matches.includes(object) ? applyJsonPatch(object, body as JsonPatchOperation[]) : object));
    } else if ((body as Record<string, unknown>)['$patch'] === 'delete') {
      objects = objects.filter((object) => !matches.includes(object));
    } else {
      throw new Error(`${dir}: only JSON 6902 patches and $patch: delete are modelled`);
    }
  }
  return objects;
}

function matchesTarget(object: Manifest, target: Target): boolean {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  return (
    (target.group === undefined || target.group === group) &&
    (target.version === undefined || target.version === version) &&
    (target.kind === undefined || target.kind === object.kind) &&
    (target.name === undefined || target.name === object.metadata.name) &&
    (target.namespace === undefined || target.namespace === object.metadata.namespace)
  );
}

interface JsonPatchOperation {
  readonly op: string;
  readonly path: string;
  readonly value?: unknown;
}

/** JSON 6902 `replace` (the only operation modelled), on a copy. */
function applyJsonPatch(object: Manifest, operations: readonly JsonPatchOperation[]): Manifest {
  const copy = structuredClone(object);
  for (const { op, path, value } of operations) {
    if (op !== 'replace') throw new Error(`JSON patch operation ${op} is not modelled`);
    const keys = path.split('/').slice(1).map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = keys.pop();
    const parent = keys.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], copy) as Record<string, unknown> | undefined;
    if (last === undefined || parent === undefined || !(last in parent)) throw new Error(`replace ${path}: no such field in ${object.kind} ${object.metadata.name}`);
    parent[last] = value;
  }
  return copy;
}

/** "Kind namespace/name" or "Kind name": how the tests list objects. */
export function describeManifest(object: Manifest): string {
  return `${object.kind} ${object.metadata.namespace === undefined ? '' : `${object.metadata.namespace}/`}${object.metadata.name}`;
}

/** The folders under deploy/ that hold a kustomization. */
export function kustomizationDirs(): string[] {
  return yamlFilesUnder(DEPLOY_DIR)
    .filter((path) => path.endsWith(`${sep}${KUSTOMIZATION}`))
    .map((path) => dirname(path));
}
