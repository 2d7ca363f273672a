import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { httpCall } from './http.js';

/** What `kubectl get` shows: the API server's Table rendering of a collection's printer columns. */
export interface PrintedTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/**
 * The Table the API server renders for `path` (a collection URL, with a field selector to pick objects), the
 * cells as kubectl prints them: the server turns a `date` column into an age, `<invalid>` for a future time.
 */
export async function printedTable(config: KubeConfig, path: string): Promise<PrintedTable> {
  const server = config.getCurrentCluster()?.server;
  if (server === undefined) throw new Error('the kubeconfig has no current cluster');
  const options: RequestOptions = { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } };
  await config.applyToHTTPSOptions(options);
  const { cert, key, ca } = options;
  const response = await httpCall(new URL(path, server).toString(), {
    headers: options.headers as Record<string, string>,
    ...(typeof ca === 'string' || Buffer.isBuffer(ca) ? { ca } : {}),
    ...((typeof cert === 'string' || Buffer.isBuffer(cert)) && (typeof key === 'string' || Buffer.isBuffer(key)) ? { clientCertificate: { cert, key } } : {}),
  });
  if (response.status !== 200) throw new Error(`${path}: HTTP ${String(response.status)} ${response.body.slice(0, 200)}`);
  const text = response.body;
  const parsed = JSON.parse(text) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
  return { columns: parsed.columnDefinitions.map((column) => column.name), rows: parsed.rows.map((row) => row.cells) };
}
