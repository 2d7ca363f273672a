import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { apiVersionOf, formatTime } from '@keyward/kernel/model';
import { type KubeObject, type ResourceType } from '@keyward/kernel';

/** The uid of an object that does not exist yet: the API server gives it one when it is created. */
export const NEW_UID = '(known after apply)';

/** The objects of a manifest file (documents that are no object are skipped). Throws naming the file and line. */
export function readManifest(file: string): KubeObject[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? ` (${error.code})` : '';
    throw new Error(`${file} cannot be read${code}`, { cause: error });
  }
  const objects: KubeObject[] = [];
  for (const document of parseAllDocuments(text)) {
    const [problem] = document.errors;
    // The parser's message quotes the lines around the error, which may hold a Secret's data: only the line.
    if (problem !== undefined) throw new Error(`${file} is not valid YAML (line ${String(problem.linePos?.[0].line ?? '?')}: ${problem.code})`);
    const value: unknown = document.toJS();
    if (isKubeObject(value)) objects.push(value);
  }
  return objects;
}

/** Whether a value is a Kubernetes object: apiVersion, kind and metadata. */
export function isKubeObject(value: unknown): value is KubeObject {
  return typeof value === 'object' && value !== null
    && 'apiVersion' in value && typeof value.apiVersion === 'string'
    && 'kind' in value && typeof value.kind === 'string'
    && 'metadata' in value && typeof value.metadata === 'object' && value.metadata !== null;
}

/** Whether a document is an object of `type`. */
export function isOfType(object: KubeObject, type: ResourceType): boolean {
  return object.kind === type.kind && object.apiVersion === apiVersionOf(type);
}

/** The namespace an object of the file goes to: its own, else --namespace, else the kubeconfig's. */
export function namespaceOf(object: KubeObject, type: ResourceType, flag: string | undefined, fallback: string, file: string): string | undefined {
  if (!type.namespaced) return undefined;
  const own = object.metadata.namespace;
  if (own !== undefined && flag !== undefined && own !== flag) {
    throw new Error(`${object.kind} ${object.metadata.name} in ${file} is in namespace ${own}, not in --namespace ${flag}`);
  }
  return own ?? flag ?? fallback;
}

/** A document's content: everything but what the API server keeps for itself (metadata, status). */
export function bodyOf(object: KubeObject): Record<string, unknown> {
  const { apiVersion: _apiVersion, kind: _kind, metadata: _metadata, status: _status, ...body } = object;
  return body;
}

/** A Secret's stringData, as the API server stores it: base64 in data. */
function withData(body: Record<string, unknown>): Record<string, unknown> {
  const { stringData, ...rest } = body;
  if (typeof stringData !== 'object' || stringData === null) return body;
  const given = rest['data'];
  const data = typeof given === 'object' && given !== null ? given : {};
  const encoded = Object.entries(stringData).map(([key, value]) => [key, Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64')]);
  return { ...rest, data: { ...data, ...Object.fromEntries(encoded) } };
}

/**
 * What the API server would hold once the file's object is applied: over an existing object, the file's
 * content, labels and annotations with the cluster's metadata (uid, resourceVersion, finalizers) and status;
 * a new object as created (a uid known after apply, generation 1, no status). `sameContent` tells whether
 * two contents are the same to the controller (its codec's defaults applied), so an unchanged file does not
 * move the generation on.
 */
export function asApplied(
  document: KubeObject,
  namespace: string | undefined,
  existing: KubeObject | undefined,
  now: Date,
  sameContent: (a: KubeObject, b: KubeObject) => boolean,
): KubeObject {
  const body = withData(bodyOf(document));
  const { labels, annotations } = document.metadata;
  if (existing === undefined) {
    const { resourceVersion: _version, ...metadata } = document.metadata;
    return {
      ...body,
      apiVersion: document.apiVersion,
      kind: document.kind,
      metadata: { ...metadata, ...(namespace === undefined ? {} : { namespace }), uid: NEW_UID, generation: 1, creationTimestamp: formatTime(now) },
    };
  }
  const status = existing['status'];
  const applied: KubeObject = {
    ...body,
    apiVersion: existing.apiVersion,
    kind: existing.kind,
    metadata: { ...existing.metadata, ...(labels === undefined ? {} : { labels }), ...(annotations === undefined ? {} : { annotations }) },
    ...(status === undefined ? {} : { status }),
  };
  // The API server moves the generation on when the content changes.
  const generation = existing.metadata.generation;
  if (generation === undefined || sameContent(applied, existing)) return applied;
  return { ...applied, metadata: { ...applied.metadata, generation: generation + 1 } };
}
