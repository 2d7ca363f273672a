import { readFileSync } from 'node:fs';

/** What the configuration defaults depend on besides arguments and environment variables. */
export interface RuntimeFacts {
  /** The namespace of the pod's ServiceAccount, when running in a pod. */
  readonly serviceAccountNamespace?: string;
  /** Whether stdout is a terminal (logs default to text for a person, JSON for a collector). */
  readonly stdoutIsTty?: boolean;
}

/** Where Kubernetes mounts the pod's namespace next to its ServiceAccount token. */
export const SERVICE_ACCOUNT_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/** Reads the facts of this process, so the configuration parsers can stay pure. */
export function detectRuntimeFacts(namespaceFile = SERVICE_ACCOUNT_NAMESPACE_FILE): RuntimeFacts {
  const namespace = readIfPresent(namespaceFile)?.trim();
  return {
    ...(namespace === undefined || namespace === '' ? {} : { serviceAccountNamespace: namespace }),
    // Typed boolean, but undefined when stdout is a pipe or a file: consumers compare with true.
    stdoutIsTty: process.stdout.isTTY,
  };
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    // Errors of the file system may come from another realm, so no instanceof.
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
}
