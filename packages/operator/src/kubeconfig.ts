import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** A kubeconfig that cannot be used. The message is one line that names the file and the problem, never a credential. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/** Where a kubeconfig is looked for when none is given; the process's by default, others in tests. */
export interface KubeconfigPlaces {
  readonly home: string;
  /** Whether this process runs in a pod with a ServiceAccount token. */
  readonly inCluster: boolean;
}

const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

function processPlaces(): KubeconfigPlaces {
  return { home: homedir(), inCluster: process.env['KUBERNETES_SERVICE_HOST'] !== undefined && existsSync(SERVICE_ACCOUNT_TOKEN) };
}

/**
 * The kubeconfig: the --kubeconfig file (or KUBECONFIG; several files separated as the platform separates
 * paths are merged, as kubectl does), else ~/.kube/config, else the in-cluster configuration in a pod. It is
 * checked before any request, so that a missing file, one that does not parse, or one that names no usable
 * cluster or credentials stops the command with one line instead of failing every request.
 */
export async function loadKubeConfig(path: string | undefined, { context, places = processPlaces() }: { readonly context?: string | undefined; readonly places?: KubeconfigPlaces } = {}): Promise<KubeConfig> {
  const config = new KubeConfig();
  const source = load(config, path, places);
  if (context !== undefined) useContext(config, source, context);
  checkCluster(config, source);
  await checkCredentials(config, source);
  return config;
}

/** Loads the configuration and returns how messages name it. */
function load(config: KubeConfig, path: string | undefined, places: KubeconfigPlaces): string {
  if (path !== undefined) {
    const [first, ...others] = path.split(delimiter).filter((file) => file !== '');
    if (first === undefined) throw new KubeconfigError('the kubeconfig path is empty');
    loadFile(config, first);
    for (const file of others) {
      const more = new KubeConfig();
      loadFile(more, file);
      config.mergeConfig(more);
    }
    return `kubeconfig ${path}`;
  }
  const home = join(places.home, '.kube', 'config');
  if (existsSync(home)) {
    loadFile(config, home);
    return `kubeconfig ${home}`;
  }
  if (places.inCluster) {
    config.loadFromCluster();
    return 'the in-cluster configuration';
  }
  throw new KubeconfigError(`no kubeconfig: ${home} does not exist and this is not a pod; give --kubeconfig <file> or set KUBECONFIG`);
}

function loadFile(config: KubeConfig, file: string): void {
  if (!existsSync(file)) throw new KubeconfigError(`kubeconfig ${file} does not exist`);
  try {
    config.loadFromFile(file);
  } catch (error) {
    throw new KubeconfigError(`kubeconfig ${file} ${loadProblem(error)}`);
  }
}

/**
 * Why a file did not load, without quoting it: a YAML error's message shows the lines around the error,
 * which may hold a token, so only its reason and line are kept.
 */
function loadProblem(error: unknown): string {
  if (typeof error !== 'object' || error === null) return `cannot be loaded: ${String(error)}`;
  if ('code' in error && typeof error.code === 'string') return `cannot be read (${error.code})`;
  if ('reason' in error && typeof error.reason === 'string') {
    const line = 'mark' in error && typeof error.mark === 'object' && error.mark !== null && 'line' in error.mark && typeof error.mark.line === 'number' ? ` (line ${String(error.mark.line + 1)})` : '';
    return `is not valid YAML: ${error.reason}${line}`;
  }
  // Empty, or YAML that is not a mapping: the client reads fields of nothing.
  if ('name' in error && error.name === 'TypeError') return 'is empty or not a kubeconfig';
  return `is not a usable kubeconfig: ${firstLine(messageOf(error))}`;
}

/** Switches to a named context, as kubectl's --context does; an unknown name lists the ones there are. */
function useContext(config: KubeConfig, source: string, name: string): void {
  const names = config.getContexts().map((context) => context.name);
  if (!names.includes(name)) throw new KubeconfigError(`${source} has no context "${name}" (it has: ${names.length === 0 ? 'none' : names.join(', ')})`);
  config.setCurrentContext(name);
}

function checkCluster(config: KubeConfig, source: string): void {
  const contextName = config.getCurrentContext();
  if (contextName === '' || (contextName as string | undefined) === undefined) throw new KubeconfigError(`${source} has no current-context`);
  const context = config.getContextObject(contextName);
  if (context === null) throw new KubeconfigError(`${source}: the current context "${contextName}" is not defined`);
  const cluster = config.getCurrentCluster();
  if (cluster === null) throw new KubeconfigError(`${source}: the cluster "${context.cluster}" of context "${contextName}" is not defined`);
  let url: URL;
  try {
    url = new URL(cluster.server);
  } catch {
    throw new KubeconfigError(`${source}: the server of cluster "${cluster.name}" is not a URL`);
  }
  if (url.protocol === 'http:' && !cluster.skipTLSVerify) {
    // @kubernetes/client-node refuses plain HTTP unless TLS verification is off (where it has nothing to verify).
    throw new KubeconfigError(`${source}: the server of cluster "${cluster.name}" is plain HTTP (${url.origin}), which the Kubernetes client refuses unless insecure-skip-tls-verify is true; use its https:// address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new KubeconfigError(`${source}: the server of cluster "${cluster.name}" is not an http(s) URL (${url.protocol})`);
  }
  if (config.getCurrentUser() === null) throw new KubeconfigError(`${source}: the user "${context.user}" of context "${contextName}" is not defined`);
}

/** Applies the credentials once (certificate and token files, an exec plugin), so a broken one is said now. */
async function checkCredentials(config: KubeConfig, source: string): Promise<void> {
  try {
    await config.applyToHTTPSOptions({ headers: {} });
  } catch (error) {
    const user = config.getCurrentUser()?.name ?? '';
    throw new KubeconfigError(`${source}: the connection settings or credentials of user "${user}" cannot be used: ${firstLine(messageOf(error))}`);
  }
}

/** An error's message; errors of the file system may come from another realm, so no instanceof. */
function messageOf(error: unknown): string {
  const message = typeof error === 'object' && error !== null && 'message' in error ? error.message : undefined;
  return typeof message === 'string' ? message : String(error);
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}
